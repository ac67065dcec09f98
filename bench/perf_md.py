#!/usr/bin/env python3
"""Writes OUT/perf.md and OUT/perf.png from fa_bench.csv, anchors.txt and
device.txt in OUT (made by bench/run_perf.sh in one GPU run)."""
import csv, datetime, os, re, sys

out = sys.argv[1]
ours = {}
for r in csv.DictReader(open(os.path.join(out, "fa_bench.csv"))):
    ours[(int(r["D"]), int(r["N"]), r["causal"] == "1")] = r
anchor_cols, anchors = [], {}
for line in open(os.path.join(out, "anchors.txt")):
    cells = line.split()
    if len(cells) > 3 and cells[:3] == ["D", "N", "causal"]:
        anchor_cols = cells[3:]
    elif len(cells) > 3 and cells[0].isdigit() and cells[1].isdigit():
        anchors[(int(cells[0]), int(cells[1]), cells[2] == "True")] = cells[3:]
device = open(os.path.join(out, "device.txt")).read().strip()
rows = []
for d in (64, 128):
    for causal in (False, True):
        for n in (1024, 4096, 16384):
            r = ours.get((d, n, causal))
            a = anchors.get((d, n, causal), ["-"] * len(anchor_cols))
            mine = f'{float(r["tflops"]):.2f}' if r else "-"
            note = f'{r["warmup"]}/{r["iters"]}, err {float(r["max_err"]):.1e} {r["check"]}' if r else "-"
            rows.append((d, n, causal, mine, a, note))
with open(os.path.join(out, "perf.md"), "w") as f:
    f.write("# Performance: fa-mlir's attention kernel beside the anchors\n\n")
    f.write(f"One run on {device}, {datetime.date.today()}. Command (on the GPU machine, after "
            "`scripts/gpu_prepare.sh` here): `bench/run_perf.sh gpu-run OUT`, which runs "
            "`fa-bench gpu-run/bench_kernels.so` (kernels of `bench/attention_bench.mlir` built by "
            "`fa-compile --export-kernels --target=sm_90`) and `anchors.py` in the same call. "
            "fp16, B = 4, H = 32, M = N, TFLOP/s = 4 B H N^2 D / t (halved when causal); ours is "
            "the median of device-event-timed launches (warm-up/timed counts in the last column: "
            "fewer than 50/100 where one launch is so slow that the run would not fit its time "
            "budget).\n\n")
    f.write("| D | N | causal | fa-mlir | " + " | ".join(anchor_cols) + " | fa-mlir runs, check |\n")
    f.write("|" + "---|" * (5 + len(anchor_cols)) + "\n")
    for d, n, causal, mine, a, note in rows:
        f.write(f"| {d} | {n} | {'yes' if causal else 'no'} | {mine} | " + " | ".join(a) +
                f" | {note} |\n")
    f.write("\n![TFLOP/s against N](perf.png)\n")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    for ax, (d, causal) in zip(axes, [(64, False), (64, True), (128, False), (128, True)]):
        ns = [1024, 4096, 16384]
        sel = [r for r in rows if r[0] == d and r[2] == causal]
        def num(x):
            try:
                return float(re.sub(r"[^0-9.]", "", x))
            except ValueError:
                return float("nan")
        ax.plot(ns, [num(r[3]) for r in sel], "o-", label="fa-mlir")
        for i, name in enumerate(anchor_cols):
            ax.plot(ns, [num(r[4][i]) if i < len(r[4]) else float("nan") for r in sel], "o--", label=name)
        ax.set_xscale("log", base=2); ax.set_yscale("log")
        ax.set_title(f"D={d} causal={'yes' if causal else 'no'}"); ax.set_xlabel("N")
        ax.set_ylabel("TFLOP/s")
    axes[0].legend(fontsize=7)
    fig.tight_layout(); fig.savefig(os.path.join(out, "perf.png"), dpi=90)
except Exception as e:  # the table is still written
    print("perf_md: no plot:", e)
print(open(os.path.join(out, "perf.md")).read())
