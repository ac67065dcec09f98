#!/usr/bin/env python3
"""Benchmark (not a test): time of fa-fuse-attention on a module with 96
attention blocks, against parse+print of the same module.

    python3 bench/fuse_bench.py [build/tools/fa-opt] [blocks]

Each block is the decomposed BERT attention of examples/ (f16 GEMMs, f32
softmax in generics, padding mask), chained so that block i reads block i-1.
Reports the median of 5 runs of each and the ratio (pass time / parse+print
time, where pass time = fuse run - plain run)."""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_module(blocks):
    src = open(os.path.join(ROOT, "examples", "attention_linalg_decomposed.mlir")).read()
    body = src[src.index("func.func"):]
    header = "".join(l + "\n" for l in src.splitlines() if l.startswith("#"))
    funcs = [re.sub(r"@bert_attention", f"@block{i}", body) for i in range(blocks)]
    calls = ["%x0 = func.call @block0(%q, %k, %v, %pad) : (tensor<2x12x384x64xf16>, tensor<2x12x384x64xf16>, tensor<2x12x384x64xf16>, tensor<2x1x1x384xf32>) -> tensor<2x12x384x64xf16>"]
    for i in range(1, blocks):
        calls.append(f"%x{i} = func.call @block{i}(%x{i-1}, %k, %v, %pad) : (tensor<2x12x384x64xf16>, tensor<2x12x384x64xf16>, tensor<2x12x384x64xf16>, tensor<2x1x1x384xf32>) -> tensor<2x12x384x64xf16>")
    main = ("func.func @model(%q: tensor<2x12x384x64xf16>, %k: tensor<2x12x384x64xf16>, %v: tensor<2x12x384x64xf16>, %pad: tensor<2x1x1x384xf32>) -> tensor<2x12x384x64xf16> {\n  "
            + "\n  ".join(calls) + f"\n  return %x{blocks-1} : tensor<2x12x384x64xf16>\n}}\n")
    return header + "\n".join(funcs) + main


def timed(cmd):
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main():
    fa_opt = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tools", "fa-opt")
    blocks = int(sys.argv[2]) if len(sys.argv) > 2 else 96
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(make_module(blocks))
    out = subprocess.run([fa_opt, "--fa-fuse-attention", f.name], check=True,
                         capture_output=True, text=True).stdout
    fused = out.count("fa.gridwise_attention")
    plain = timed([fa_opt, f.name, "-o", os.devnull])
    fuse = timed([fa_opt, "--fa-fuse-attention", f.name, "-o", os.devnull])
    os.unlink(f.name)
    print(f"blocks: {blocks}, fused: {fused}")
    print(f"parse+print: {plain * 1e3:.1f} ms, with fa-fuse-attention: {fuse * 1e3:.1f} ms")
    print(f"pass time: {(fuse - plain) * 1e3:.1f} ms, ratio pass/(parse+print): {(fuse - plain) / plain:.2f}")


if __name__ == "__main__":
    main()
