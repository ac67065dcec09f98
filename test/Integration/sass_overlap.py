#!/usr/bin/env python3
"""Where the Hopper kernel's key loop waits for P(t-1) V(t-1): reads SASS listings
(nvdisasm -c or cuobjdump --dump-sass) and prints, per file, the MUFU.EX2 between the
wait for S (WARPGROUP.DEPBAR.LE gsb0, 0x1) and the wait for P V (gsb0, 0x0), and those
after it up to the next HGMMA. The softmax overlaps P V when all of the tile's
exponentials come before the second wait. A kernel that runs each tile in turn waits
for every group to drain (gsb0, 0x0 only).

usage: sass_overlap.py FILE..."""
import os
import re
import sys

INSTR = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")


def scan(path):
    ops = [m.groups() for m in map(INSTR.search, open(path)) if m]
    starts = [i for i, (op, args) in enumerate(ops)
              if op == "WARPGROUP.DEPBAR.LE" and "0x1" in args]
    if not starts:
        drains = any(op == "WARPGROUP.DEPBAR.LE" and "0x0" in args for op, args in ops)
        return "every wait drains (no overlap)" if drains else "no wgmma wait"
    i = starts[0]
    before = after = 0
    j = i + 1
    while j < len(ops) and not (ops[j][0] == "WARPGROUP.DEPBAR.LE" and "0x0" in ops[j][1]):
        before += ops[j][0] == "MUFU.EX2"
        j += 1
    if j == len(ops):
        return "no wait for P V"
    j += 1
    while j < len(ops) and not ops[j][0].startswith("HGMMA"):
        after += ops[j][0] == "MUFU.EX2"
        j += 1
    return f"exponentials before the P V wait {before}, after it {after}"


for path in sys.argv[1:]:
    print(f"{os.path.basename(path)}: {scan(path)}")
