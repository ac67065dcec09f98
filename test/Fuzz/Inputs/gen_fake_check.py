#!/usr/bin/env python3
# A stand-in for fa-check in differential.test. It prints fa-check's
# per-function lines for every public function of the module, agreeing
# except for:
#   functions named p1_*: MISMATCH (exit 1), a wrong fusion to find;
#   functions named p2_*: the module "could not compile" (exit 2, nothing
#   printed), so that the fuzzer must bisect the batch down to it.
import re
import sys

path = [a for a in sys.argv[1:] if not a.startswith("--")][-1]
with open(path) as f:
    names = re.findall(r"^\s*func\.func @([A-Za-z0-9_$.]+)\(", f.read(), re.M)
if any(n.startswith("p2_") for n in names):
    sys.stderr.write("fa-check: the JIT could not compile the fa-to-cpu output\n")
    sys.exit(2)
bad = 0
for n in names:
    if n.startswith("p1_"):
        bad += 1
        print("%s: output 0 (f32, 8 elements): max abs err 5.000e-01, max rel err 1.000e+00"
              "  MISMATCH (8 beyond atol 2.0e-04 + rtol 2.0e-03)" % n)
    else:
        print("%s: output 0 (f32, 8 elements): max abs err 0.000e+00, max rel err 0.000e+00"
              "  ok" % n)
print("fa-check: %d functions: %d agree, %d disagree, 0 could not run"
      % (len(names), len(names) - bad, bad))
sys.exit(1 if bad else 0)
