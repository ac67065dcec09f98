#!/usr/bin/env python3
"""Mutation fuzzer of fa-run's manifests and fa-check's options (standard
library only).

  fa-run    a model compiled for the CPU (fa-compile --target=cpu) and the
            directory fa-check --save wrote for it; each run mutates the
            manifest (numbers, dtypes, words, lines) or truncates an output
            file, and runs fa-run on the copy.
  fa-check  random option lists (valid, out of range and malformed values of
            --dim, --seed, --int-max, --tol-scale, --input-scale,
            --binary-arg, --split-input-file, unknown options) on a small
            model.

Every run must end with an exit status (0, 1 or 2 and a message), never a
signal or a hang: a signal or a run past --timeout is a finding, written to
--out with the command that gave it. Runs are limited to 4 GiB of address
space (an option asking for a huge tensor must be refused, not attempted).
The exit status is 1 if anything was found.

  CI (test/Fuzz/fuzz-tools.test): fuzz_tools.py --runs 300 --check-runs 20
"""
import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL = os.path.join(ROOT, "examples", "attention_tosa.mlir")
SMALL = os.path.join(ROOT, "test", "Tools", "Inputs", "small-fa-op.mlir")

NUMBERS = ["0", "1", "-1", "2", "7", "64", "65536", "2147483647", "2147483648",
           "4294967296", "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "18446744073709551615", "1e9", "3.5", "nan",
           "inf", "-0", "", "x", "0x10"]
REPEATS = ["0", "1", "-1", "3", "x", "", "1.5", "-9223372036854775808",
           "18446744073709551616", "0x10"]
WORDS = ["func", "in", "out", "gen", "file", "f16", "bf16", "f32", "f64", "i1", "i32",
         "i64", "i8", "attention", "nosuch", "../../etc/passwd", "a b", "%s%n"]


def limit_memory():
    four_gib = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (four_gib, four_gib))


def run(cmd, timeout):
    """The exit status, or None for a hang."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout, preexec_fn=limit_memory)
        return p.returncode
    except subprocess.TimeoutExpired:
        return None


def mutate_manifest(rng, text):
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        toks = lines[i].split(" ")
        what = rng.randrange(7)
        j = rng.randrange(len(toks))
        if what == 0:
            toks[j] = rng.choice(NUMBERS)
        elif what == 1:
            toks[j] = rng.choice(WORDS)
        elif what == 2:
            del toks[j]
        elif what == 3:
            toks.insert(j, rng.choice(NUMBERS + WORDS))
        elif what == 4:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif what == 5:
            del lines[i]
            continue
        else:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
            continue
        lines[i] = " ".join(toks)
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


def fuzz_run(rng, args, work, ref, so):
    """One fa-run on a mutated copy of `ref`; the failure, or None."""
    d = os.path.join(work, "case")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(ref, d)
    path = os.path.join(d, "manifest.txt")
    with open(path) as f:
        text = f.read()
    if rng.random() < 0.15:
        bins = [n for n in os.listdir(d) if n.endswith(".bin")]
        if bins:
            b = os.path.join(d, rng.choice(bins))
            with open(b, "r+b") as f:
                f.truncate(rng.randrange(os.path.getsize(b) + 1))
    else:
        text = mutate_manifest(rng, text)
        with open(path, "w") as f:
            f.write(text)
    cmd = [args.fa_run, so, d]
    if rng.random() < 0.3:
        cmd.append("--tol-scale=" + rng.choice(NUMBERS))
    if rng.random() < 0.2:
        # A large valid count is a long run, not a hang: only small or invalid ones.
        cmd.append("--repeat=" + rng.choice(REPEATS))
    rc = run(cmd, args.timeout)
    if rc is None or rc < 0:
        return cmd, text, "hang" if rc is None else "signal %d" % -rc
    return None


def check_options(rng):
    opts = []
    for _ in range(rng.randint(0, 4)):
        kind = rng.randrange(9)
        n = rng.choice(NUMBERS)
        if kind == 0:
            opts.append("--dim=" + n)
        elif kind == 1:
            opts.append("--dim=%s=%s" % (rng.choice(NUMBERS[:6]), n))
        elif kind == 2:
            opts.append("--dim=%s.%s=%s" % (rng.choice(NUMBERS[:6]), rng.choice(NUMBERS[:6]), n))
        elif kind == 3:
            opts.append(rng.choice(["--seed=", "--int-max=", "--binary-arg="]) + n)
        elif kind == 4:
            opts.append(rng.choice(["--tol-scale=", "--input-scale="]) + n)
        elif kind == 5:
            opts.append("--split-input-file")
        elif kind == 6:
            opts.append(rng.choice(["--nosuch", "-", "--dim", "--save=", "--pipeline="]))
        elif kind == 7:
            opts.append("--pipeline=" + rng.choice(["fa-to-cpu", "nosuch", "fa-verify", ""]))
        else:
            opts.append(rng.choice(WORDS))
    return opts


def fuzz_check(rng, args):
    cmd = [args.fa_check] + check_options(rng) + [SMALL]
    rc = run(cmd, args.timeout)
    if rc is None or rc < 0:
        return cmd, "", "hang" if rc is None else "signal %d" % -rc
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=300, help="fa-run mutants")
    ap.add_argument("--check-runs", type=int, default=20, help="fa-check option lists")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--out", help="directory for findings")
    args = ap.parse_args()
    tools = os.path.join(args.build, "tools")
    args.fa_run = os.path.join(tools, "fa-run")
    args.fa_check = os.path.join(tools, "fa-check")
    rng = random.Random(args.seed)
    findings = []
    with tempfile.TemporaryDirectory() as work:
        so, ref = os.path.join(work, "model.so"), os.path.join(work, "ref")
        os.makedirs(ref)
        for cmd in ([os.path.join(tools, "fa-compile"), "--target=cpu", MODEL, "-o", so],
                    [args.fa_check, "--save=" + ref, MODEL]):
            if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
                sys.exit("fuzz_tools.py: setup failed: " + " ".join(cmd))
        for _ in range(args.runs):
            f = fuzz_run(rng, args, work, ref, so)
            if f:
                findings.append(f)
        for _ in range(args.check_runs):
            f = fuzz_check(rng, args)
            if f:
                findings.append(f)
    for i, (cmd, text, what) in enumerate(findings):
        print("fuzz_tools: FOUND %s: %s" % (what, " ".join(cmd)), flush=True)
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            with open(os.path.join(args.out, "finding-%d.txt" % i), "w") as f:
                f.write(" ".join(cmd) + "\n" + text)
    print("fuzz_tools: fa-run %d, fa-check %d (seed %d): %d signals or hangs"
          % (args.runs, args.check_runs, args.seed, len(findings)))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
