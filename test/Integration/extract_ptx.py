#!/usr/bin/env python3
"""Prints the PTX of the first gpu.binary (format=isa) in MLIR text on stdin."""
import re
import sys

text = sys.stdin.read()
m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not m:
    sys.exit("extract_ptx: no gpu.binary with PTX assembly in the input")
sys.stdout.write(re.sub(r"\\([0-9A-Fa-f]{2})", lambda h: chr(int(h.group(1), 16)),
                        m.group(1)).replace('\\"', '"').replace("\\\\", "\\"))
