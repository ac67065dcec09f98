#!/usr/bin/env python3
"""Writes every gpu.binary object of MLIR text on stdin to DIR/NAME.ptx (PTX
assembly) or DIR/NAME.hsaco (binary code object), then runs COMMAND on each
file ({} stands for its path) and fails if any run fails.

usage: gpu_objects.py DIR [COMMAND...]"""
import os
import re
import subprocess
import sys


def unescape(text, start):
    """Decodes an MLIR string literal body starting at `start`; returns bytes."""
    out, i = bytearray(), start
    while text[i] != '"':
        if text[i] == "\\":
            nxt = text[i + 1]
            if nxt in '"\\':
                out.append(ord(nxt))
                i += 2
            elif nxt == "n":
                out.append(10)
                i += 2
            elif nxt == "t":
                out.append(9)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out_dir, command = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    text = sys.stdin.read()
    paths = []
    for m in re.finditer(r"gpu\.binary @([\w$.]+)", text):
        obj = re.compile(r'(assembly|bin) = "').search(text, m.end())
        if not obj:
            sys.exit(f"gpu_objects: gpu.binary @{m.group(1)} holds no object")
        ext = "ptx" if obj.group(1) == "assembly" else "hsaco"
        # Split inputs repeat kernel names: the second of a name gets _1, ...
        name, n = m.group(1), 0
        while os.path.join(out_dir, f"{name}.{ext}") in paths:
            n += 1
            name = f"{m.group(1)}_{n}"
        path = os.path.join(out_dir, f"{name}.{ext}")
        with open(path, "wb") as f:
            f.write(unescape(text, obj.end()))
        paths.append(path)
    if not paths:
        sys.exit("gpu_objects: no gpu.binary in the input")
    print(f"gpu_objects: {len(paths)} objects")
    for path in paths:
        if command:
            cmd = [a.replace("{}", path) for a in command]
            sys.stdout.flush()
            if subprocess.run(cmd).returncode != 0:
                sys.exit(f"gpu_objects: failed on {path}: {' '.join(cmd)}")


main()
