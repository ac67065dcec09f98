#!/usr/bin/env python3
"""Writes every gpu.binary object of MLIR text on stdin to DIR/NAME.ptx (PTX
assembly) or DIR/NAME.hsaco (binary code object), then runs COMMAND on each
file ({} stands for its path) and fails if any run fails. NAME is the
object's symbol; with --by-function it is FUNCTION.SYMBOL, FUNCTION the first
public function of the object's split-input chunk (the test's own), and
"gpu_objects: object NAME" precedes each run of COMMAND (spills.py reads it).

usage: gpu_objects.py [--by-function] DIR [COMMAND...]"""
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


def chunk_function(text, pos):
    """The first public function of the split-input chunk around `pos`."""
    start = text.rfind("\n// -----\n", 0, pos)
    end = text.find("\n// -----\n", pos)
    chunk = text[max(start, 0):end if end >= 0 else len(text)]
    for m in re.finditer(r"(?:llvm|func)\.func @([\w$.]+)\((.*)", chunk):
        if "private" not in m.group(2) and not m.group(1).startswith(("mgpu", "_mlir")):
            return m.group(1)
    sys.exit("gpu_objects: a chunk without a public function")


def main():
    args = sys.argv[1:]
    by_function = args[:1] == ["--by-function"]
    args = args[1:] if by_function else args
    if not args:
        sys.exit(__doc__)
    out_dir, command = args[0], args[1:]
    os.makedirs(out_dir, exist_ok=True)
    text = sys.stdin.read()
    paths = []
    for m in re.finditer(r"gpu\.binary @([\w$.]+)", text):
        obj = re.compile(r'(assembly|bin) = "').search(text, m.end())
        if not obj:
            sys.exit(f"gpu_objects: gpu.binary @{m.group(1)} holds no object")
        ext = "ptx" if obj.group(1) == "assembly" else "hsaco"
        # Split inputs repeat kernel names: the second of a name gets _1, ...
        base = m.group(1)
        if by_function:
            base = f"{chunk_function(text, m.start())}.{base}"
        name, n = base, 0
        while os.path.join(out_dir, f"{name}.{ext}") in paths:
            n += 1
            name = f"{base}_{n}"
        path = os.path.join(out_dir, f"{name}.{ext}")
        with open(path, "wb") as f:
            f.write(unescape(text, obj.end()))
        paths.append(path)
    if not paths:
        sys.exit("gpu_objects: no gpu.binary in the input")
    print(f"gpu_objects: {len(paths)} objects")
    for path in paths:
        if command:
            if by_function:
                print(f"gpu_objects: object {os.path.splitext(os.path.basename(path))[0]}")
            cmd = [a.replace("{}", path) for a in command]
            sys.stdout.flush()
            if subprocess.run(cmd).returncode != 0:
                sys.exit(f"gpu_objects: failed on {path}: {' '.join(cmd)}")


main()
