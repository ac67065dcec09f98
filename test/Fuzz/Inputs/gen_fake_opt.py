#!/usr/bin/env python3
# A stand-in for fa-opt in differential.test: "fuses" every function (prints
# the module with an fa.gridwise_attention comment in each function body and a
# fused remark for each), so that gen_attention.py's classification can be
# checked without relying on what the real matcher takes.
import re
import sys

path = sys.argv[-1]
with open(path) as f:
    lines = f.read().splitlines()
out = []
for n, line in enumerate(lines, 1):
    out.append(line)
    if re.match(r"\s*func\.func @", line):
        out.append("  // fa.gridwise_attention")
        sys.stderr.write("%s:%d:1: remark: fa-fuse-attention: fused into fa.gridwise_attention\n"
                         % (path, n))
print("\n".join(out))
