#!/usr/bin/env python3
"""Mutation fuzzer of fa-opt (standard library only).

Takes the lit inputs and models (each `// -----` chunk, as written and in
generic form), applies one to three textual mutations that know a little of
MLIR's syntax (integer and float literals, tensor shapes and element types
replaced everywhere at once, op and predicate swaps, SSA-name and affine-dim
swaps, line edits, splices), and runs each mutant through fa-opt:

  fuse    fa-opt --fa-fuse-attention=explain     (fusion and its remarks)
  verify  fa-opt --fa-verify on fuse's output    (the result must verify)
  cpu     fa-opt --fa-to-cpu                     (the whole cpu pipeline)
  nvvm, sm90a, rocdl (with --targets)            (slower; optional; sm90a:
                                                 fa-to-nvvm{chip=sm_90a}, the Hopper kernel)

Outcomes of a mutant: `rejected` (fa-opt or mlir-opt refuses the input: most
mutants), `ok`, or a finding:
  crash    a tool died of a signal;
  hang     a tool ran past --timeout;
  invalid  fusion exited 0 with output that fa-opt --fa-verify (or the
           parser) rejects, or failed on an input that fa-opt accepts (the
           pass left an op its verifier rejects).
A finding counts only if a second run of the mutant repeats it (a run
starved by other work on the machine is reported as "not repeated").
A crash is `upstream` when mlir-opt 22 crashes on the same input just parsing
it (a bug in MLIR's own parser or verifiers; see docs/upstream-bugs.md), or,
in a pipeline, when the same pipeline without our passes
(--fa-upstream-to-cpu) crashes too. Every other finding is ours: it is
minimised (lines removed while the same stage still fails the same way) and
written to --out. The exit status is 1 if any finding is ours.

  CI (test/Fuzz/fuzz.test): fuzz.py --seed 1 --runs 200
  Long run:  test/Fuzz/fuzz.py --fa-opt build/tools/fa-opt --seed $RANDOM \\
                 --runs 1000000 --jobs $(nproc) --out fuzz-findings
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS_GLOBS = ["test/Fusion/*.mlir", "examples/*.mlir", "test/Models/*.mlir"]

# --- corpus ------------------------------------------------------------------

def strip_comments(text):
    return "\n".join(l for l in text.splitlines()
                     if l.strip() and not l.lstrip().startswith("//")) + "\n"


def load_corpus(root, patterns, fa_opt, generic):
    seeds = []
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            with open(path) as f:
                text = f.read()
            for chunk in re.split(r"^// -----.*$", text, flags=re.M):
                chunk = strip_comments(chunk)
                if chunk.strip():
                    seeds.append(chunk)
    if generic:
        for chunk in list(seeds):
            r = run([fa_opt, "--allow-unregistered-dialect",
                     "--mlir-print-op-generic", "-"], chunk, 20)
            if r[0] == 0:
                seeds.append(r[1])
    return seeds

# --- mutations ---------------------------------------------------------------

INTS = [0, 1, -1, 2, 3, 4, 7, 8, 16, 31, 32, 63, 64, 127, 128, 255, 256,
        65535, 65536, 2**31 - 1, -2**31, 2**32, 2**32 + 1, 2**63 - 1, -2**63,
        -4, -3, 5, 6, 1000, 10**9]
FLOATS = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "2.0", "1.0e+30", "-1.0e+30",
          "-1.0e+04", "-1.000000e+09", "-3.40282347E+38", "3.40282347E+38",
          "0x7F800000", "0xFF800000", "0x7FC00000", "0xFC00", "0x7C00",
          "0xFF80", "1.0e-30", "-65504.0", "0.125", "0.353553385"]
ELEMENT_TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "index"]
OP_FAMILIES = [
    ["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf",
     "arith.maxnumf", "arith.minimumf"],
    ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori"],
    ["math.exp", "math.exp2", "arith.negf", "math.log"],
    ["arith.extf", "arith.truncf"],
    ["tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum", "tosa.minimum"],
    ["tosa.exp", "tosa.reciprocal", "tosa.negate", "tosa.abs"],
    ["tosa.reduce_max", "tosa.reduce_sum", "tosa.reduce_min", "tosa.reduce_all"],
    ["tosa.greater", "tosa.greater_equal", "tosa.equal"],
    ["linalg.matmul", "linalg.batch_matmul"],
    ["tensor.expand_shape", "tensor.collapse_shape"],
    ["parallel", "reduction"],
    ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"],
    ["oeq", "ogt", "oge", "olt", "ole", "one", "ueq", "ugt", "uge", "ult",
     "ule", "une", "ord", "uno"],
]
INT_RE = re.compile(r"(?<![\w.#%^@])-?\d+(?![\w.])")
FLOAT_RE = re.compile(r"(?<![\w.])-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|0x[0-9A-Fa-f]{4,16})(?![\w.])")
TENSOR_RE = re.compile(r"tensor<([0-9?x]*)([a-z][a-z0-9]*)>")
SSA_RE = re.compile(r"%[A-Za-z_][\w$.]*|%\d+")


def pick_match(rng, regex, text):
    ms = list(regex.finditer(text))
    return rng.choice(ms) if ms else None


def replace_span(text, m, new):
    return text[:m.start()] + new + text[m.end():]


def mut_int(rng, text, seeds):
    m = pick_match(rng, INT_RE, text)
    if not m:
        return None
    v = int(m.group(0))
    new = rng.choice(INTS + [v + 1, v - 1, -v, v * 2])
    return replace_span(text, m, str(new))


ATTR_INT_RE = re.compile(r"(?:axis = |dimension\(|dim = |linalg\.index |permutation = \[|"
                         r"dimensions = \[|\[\[|\], \[|array<i64: |array<i32: |predicate = )"
                         r"(-?\d+)")


def mut_attr_int(rng, text, seeds):
    """An integer of an attribute that indexes (axis, dims, reassociation,
    permutation, segment sizes, predicate) set out of range."""
    m = pick_match(rng, ATTR_INT_RE, text)
    if not m:
        return None
    new = rng.choice([-1, -2, 4, 5, 6, 7, 9, 16, 255, 2**31, 2**32, 2**32 + 1, 2**63 - 1])
    return text[:m.start(1)] + str(new) + text[m.end(1):]


def mut_float(rng, text, seeds):
    m = pick_match(rng, FLOAT_RE, text)
    return replace_span(text, m, rng.choice(FLOATS)) if m else None


def mut_shape(rng, text, seeds):
    """One dim of one tensor type, changed in every occurrence of the type."""
    m = pick_match(rng, TENSOR_RE, text)
    if not m or not m.group(1):
        return None
    dims = m.group(1).rstrip("x").split("x")
    i = rng.randrange(len(dims))
    dims[i] = rng.choice(["1", "2", "3", "5", "8", "17", "?", str(2 * int(dims[i]))
                          if dims[i].isdigit() else "4"])
    if rng.random() < 0.2:
        del dims[i]
    new = "tensor<" + "".join(d + "x" for d in dims) + m.group(2) + ">"
    return text.replace(m.group(0), new)


def mut_element_type(rng, text, seeds):
    a, b = rng.sample(ELEMENT_TYPES, 2)
    pat = re.compile(r"(?<=[x<\s(:,])" + a + r"(?![\w])")
    if not pat.search(text):
        return None
    if rng.random() < 0.5:  # everywhere
        return pat.sub(b, text)
    m = pick_match(rng, pat, text)
    return replace_span(text, m, b)


def mut_op(rng, text, seeds):
    fam = rng.choice(OP_FAMILIES)
    pat = re.compile(r"(?<![\w.])(" + "|".join(re.escape(o) for o in fam) + r")(?![\w.])")
    m = pick_match(rng, pat, text)
    if not m:
        return None
    return replace_span(text, m, rng.choice([o for o in fam if o != m.group(0)]))


def mut_ssa(rng, text, seeds):
    """One use of an SSA value replaced by another value of the file."""
    names = sorted(set(SSA_RE.findall(text)))
    uses = [m for m in SSA_RE.finditer(text)
            if not re.match(r"\s*(=|,[^=\n]*=|:)", text[m.end():m.end() + 40])]
    if len(names) < 2 or not uses:
        return None
    m = rng.choice(uses)
    return replace_span(text, m, rng.choice(names))


def mut_affine(rng, text, seeds):
    m = pick_match(rng, re.compile(r"affine_map<[^>]*>"), text)
    if not m:
        return None
    body = m.group(0)
    arrow = body.index("->")
    ds = list(re.finditer(r"\bd\d\b|\b0\b", body[arrow:]))
    if not ds:
        return None
    d = rng.choice(ds)
    new = body[:arrow] + replace_span(body[arrow:], d, rng.choice(["d0", "d1", "d2", "d3", "0", "1"]))
    return replace_span(text, m, new)


def mut_lines(rng, text, seeds):
    lines = text.splitlines()
    if len(lines) < 3:
        return None
    i = rng.randrange(1, len(lines) - 1)
    op = rng.randrange(3)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    else:
        j = min(i + 1, len(lines) - 1)
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def mut_splice(rng, text, seeds):
    other = rng.choice(seeds).splitlines()
    lines = text.splitlines()
    if len(lines) < 3 or not other:
        return None
    i = rng.randrange(1, len(lines) - 1)
    lines[i] = rng.choice(other)
    return "\n".join(lines) + "\n"


MUTATORS = [(mut_int, 6), (mut_attr_int, 4), (mut_float, 3), (mut_shape, 4), (mut_element_type, 2),
            (mut_op, 5), (mut_ssa, 3), (mut_affine, 2), (mut_lines, 2), (mut_splice, 1)]


def mutate(rng, seeds):
    text = rng.choice(seeds)
    funcs = [f for f, w in MUTATORS for _ in range(w)]
    done = 0
    for _ in range(20):
        new = rng.choice(funcs)(rng, text, seeds)
        if new is not None and new != text:
            text = new
            done += 1
            if done >= rng.randint(1, 3):
                break
    return text

# --- running -----------------------------------------------------------------

def run(cmd, stdin, timeout):
    """(returncode, stdout, stderr); returncode is -signal on a signal and
    None on a timeout."""
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


class Server:
    """fa-fuzz-server (fuzz-server.c): fa-opt started once, forked per run.
    One per worker thread; the same (returncode, stdout, stderr) as run()."""

    def __init__(self, path, timeout):
        self.cmd = [path, str(timeout)]
        self.proc = None

    def run(self, args, text):
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE)
        data = text.encode("utf-8", "replace")
        request = "%d\n%s%d\n" % (len(args), "".join(a + "\n" for a in args), len(data))
        self.proc.stdin.write(request.encode() + data)
        self.proc.stdin.flush()
        kind, code, n_out, n_err = self.proc.stdout.readline().decode().split()
        out = self.proc.stdout.read(int(n_out)).decode("utf-8", "replace")
        err = self.proc.stdout.read(int(n_err)).decode("utf-8", "replace")
        if kind == "timeout":
            return None, out, err
        return (-int(code) if kind == "signal" else int(code)), out, err


class Tools:
    def __init__(self, args):
        self.fa_opt, self.mlir_opt, self.timeout = args.fa_opt, args.mlir_opt, args.timeout
        self.targets = args.targets
        self.server_path = args.server
        self.local = threading.local()

    def fa(self, flags, text):
        args = ["--allow-unregistered-dialect"] + flags + ["-"]
        if not self.server_path:
            return run([self.fa_opt] + args, text, self.timeout)
        if not hasattr(self.local, "server"):
            self.local.server = Server(self.server_path, self.timeout)
        return self.local.server.run(args, text)

    def stages(self):
        yield "fuse", ["--fa-fuse-attention=explain"]
        for t in ["cpu"] + self.targets:
            if t == "sm90a":  # the Hopper kernel
                yield t, ["--pass-pipeline=builtin.module(fa-to-nvvm{chip=sm_90a})"]
            else:
                yield t, ["--fa-to-" + t]


def failure(stage, rc):
    """A failure signature, or None."""
    if rc is None:
        return (stage, "hang")
    if rc < 0:
        return (stage, "crash", signal.Signals(-rc).name if -rc in signal.valid_signals() else str(-rc))
    return None


def check(tools, text):
    """Returns 'rejected', 'ok' or a failure signature (a tuple)."""
    rc, _, _ = tools.fa([], text)
    if rc != 0:
        f = failure("parse", rc)
        return f if f else "rejected"
    for stage, flags in tools.stages():
        rc, out, _ = tools.fa(flags, text)
        f = failure(stage, rc)
        if f:
            return f
        if stage != "fuse":
            continue
        if rc != 0:
            return ("fuse", "invalid")  # the pass broke a valid input
        rc, _, _ = tools.fa(["--fa-verify"], out)
        f = failure("verify", rc)
        if f or rc != 0:
            return f or ("fuse", "invalid")
    return "ok"


def is_upstream(tools, sig, text):
    """Does the failure happen without fa-mlir's code?"""
    rc, _, _ = run([tools.mlir_opt, "--allow-unregistered-dialect", "-"], text, tools.timeout)
    if rc is None or rc < 0:
        return True
    if sig[0] in ("cpu",):
        rc, _, _ = tools.fa(["--fa-upstream-to-cpu"], text)
        return failure("cpu", rc) == (sig[0],) + sig[1:]
    return False


def minimise(tools, sig, text, budget=400):
    """Line-wise delta debugging: the smallest input (by lines) that still
    fails with `sig`."""
    lines = text.splitlines()
    n = 2
    while len(lines) >= 2 and budget > 0:
        chunk = max(1, len(lines) // n)
        removed = False
        for start in range(0, len(lines), chunk):
            cand = lines[:start] + lines[start + chunk:]
            budget -= 1
            if cand and check(tools, "\n".join(cand) + "\n") == sig:
                lines, removed = cand, True
                n = max(n - 1, 2)
                break
            if budget <= 0:
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    return "\n".join(lines) + "\n"


def one(tools, seed, seeds):
    rng = random.Random(seed)
    text = mutate(rng, seeds)
    return seed, text, check(tools, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fa-opt", default=os.path.join(ROOT, "build/tools/fa-opt"))
    ap.add_argument("--server", help="fa-fuzz-server (build/test/bin): run fa-opt's "
                    "driver in a fork server instead of one process per run (faster)")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--root", default=ROOT, help="source tree holding the corpus")
    ap.add_argument("--corpus", nargs="*", default=CORPUS_GLOBS,
                    help="globs (relative to --root) of the seed inputs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=200, help="mutants to run")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20, help="per tool run")
    ap.add_argument("--targets", nargs="*", default=[], choices=["nvvm", "sm90a", "rocdl"])
    ap.add_argument("--no-generic", action="store_true", help="skip generic-form seeds")
    ap.add_argument("--out", help="directory for findings (mutant and minimised input)")
    ap.add_argument("--max-minimise", type=int, default=20, help="findings to minimise")
    args = ap.parse_args()
    tools = Tools(args)
    seeds = load_corpus(args.root, args.corpus, args.fa_opt, not args.no_generic)
    if not seeds:
        sys.exit("fuzz.py: no corpus under " + args.root)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    counts = {"ok": 0, "rejected": 0, "flaky": 0}
    ours, upstream = {}, {}
    start = time.time()
    executed = minimised = reported = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        pending = set()
        next_seed = args.seed * 1000003
        while True:
            out_of_time = args.seconds and time.time() - start > args.seconds
            while (len(pending) < 2 * args.jobs and executed + len(pending) < args.runs
                   and not out_of_time):
                pending.add(pool.submit(one, tools, next_seed, seeds))
                next_seed += 1
            if not pending:
                break
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                executed += 1
                seed, text, res = fut.result()
                if isinstance(res, str):
                    counts[res] += 1
                    continue
                # A finding must repeat: a run starved by other work on the
                # machine (a timeout, a failed allocation) is not one.
                again = check(tools, text)
                if again != res:
                    counts["flaky"] += 1
                    print("fuzz: flaky %s (seed %d): a second run gave %s" %
                          (" ".join(res), seed, again if isinstance(again, str) else " ".join(again)),
                          flush=True)
                    continue
                table = upstream if is_upstream(tools, res, text) else ours
                table[res] = table.get(res, 0) + 1
                name = "-".join(res) + "-%d" % seed
                print("fuzz: %s %s (seed %d)" % ("upstream" if table is upstream else "FOUND",
                                                 " ".join(res), seed), flush=True)
                if args.out:
                    with open(os.path.join(args.out, name + ".mlir"), "w") as f:
                        f.write(text)
                if table is ours and minimised < args.max_minimise:
                    minimised += 1
                    small = minimise(tools, res, text)
                    if args.out:
                        with open(os.path.join(args.out, name + ".min.mlir"), "w") as f:
                            f.write(small)
                    else:
                        print(small, flush=True)
            if executed // 1000 != reported:
                reported = executed // 1000
                print("fuzz: %d executions, %.0f s" % (executed, time.time() - start), flush=True)
    def total(t, kind):
        return sum(v for k, v in t.items() if k[1] == kind)
    print("fuzz: executions %d (seed %d, %.0f s): ok %d, rejected inputs %d, not repeated "
          "%d; ours: crashes %d, hangs %d, invalid %d; upstream crashes %d, hangs %d"
          % (executed, args.seed, time.time() - start, counts["ok"], counts["rejected"],
             counts["flaky"],
             total(ours, "crash"), total(ours, "hang"), total(ours, "invalid"),
             total(upstream, "crash"), total(upstream, "hang")))
    for k, v in sorted(ours.items()):
        print("fuzz:   ours %s: %d" % (" ".join(k), v))
    for k, v in sorted(upstream.items()):
        print("fuzz:   upstream %s: %d" % (" ".join(k), v))
    sys.exit(1 if ours else 0)


if __name__ == "__main__":
    main()
