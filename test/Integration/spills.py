#!/usr/bin/env python3
"""Lists the kernels that spill registers in `ptxas -v` output (as gpu_objects.py
runs it, one object after another): 'spills:', then 'NAME BYTES' for each kernel
with spill stores (NAME as gpu_objects.py names its object: a repeated name gets
_1, _2, ...; with --by-function, the name its "gpu_objects: object" line gave),
then 'end'. A test then states exactly which kernels spill.

  spills.py PTXAS_OUTPUT"""
import re
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
seen, name, spilling, given = {}, None, [], None
for line in open(sys.argv[1]):
    m = re.match(r"gpu_objects: object (\S+)", line)
    if m:
        given = m.group(1)
    m = re.search(r"Function properties for (\S+)", line)
    if m and given:
        name, given = given, None
    elif m:
        n = seen.get(m.group(1), 0)
        seen[m.group(1)] = n + 1
        name = m.group(1) + (f"_{n}" if n else "")
    m = re.search(r"(\d+) bytes spill stores", line)
    if m and int(m.group(1)) and name:
        spilling.append(f"{name} {m.group(1)}")
print("spills:")
for s in spilling:
    print(s)
print("end")
