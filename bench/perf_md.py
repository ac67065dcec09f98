#!/usr/bin/env python3
"""Writes OUT/perf.md and OUT/perf.png from fa_bench.csv, anchors.txt and
device.txt in OUT (made by bench/run_perf.sh in one GPU run). With a second
directory ANY (bench/run_perf_any.sh's fa_bench_any.csv and anchors_any.txt,
same run), perf.md gets the table of shapes beyond the 12 too.
usage: perf_md.py OUT [ANY]"""
import ast, csv, datetime, os, re, sys

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


def ratio(mine, anchor):
    try:
        return f"{float(mine) / float(anchor):.2f}"
    except ValueError:
        return "-"


def anchor_of(name, a):
    return a[anchor_cols.index(name)] if name in anchor_cols and anchor_cols.index(name) < len(a) else "-"


RATIOS = ["sdpa-flash", "sdpa-cudnn", "triton-tutorial"]


def any_table(f, anydir):
    """Shapes beyond the 12: ours beside PyTorch SDPA's backends, same run."""
    shapes = {}
    for r in csv.DictReader(open(os.path.join(anydir, "fa_bench_any.csv"))):
        shapes[(r["B"], r["Hq"], r["Hkv"], r["M"], r["N"], r["D"], r["dtype"], r["causal"])] = r
    f.write("\n## Shapes beyond the 12 (bench/shapes_any.txt), same run\n\n"
            "fa-bench beside `anchors_any.py` (PyTorch SDPA's flash, cuDNN and efficient backends; "
            "`-` where the backend refuses the shape). TFLOP/s count visible query-key pairs "
            "(causal with M != N bottom-right aligned); for decode (M = 1) also the bandwidth of "
            "reading K and V.\n\n"
            "| B | Hq | Hkv | M | N | D | dtype | causal | fa-mlir | GB/s (K, V) | flash | cuDNN | "
            "efficient | best | fa-mlir / best | check |\n")
    f.write("|" + "---|" * 16 + "\n")
    for line in open(os.path.join(anydir, "anchors_any.txt")):
        if not line.startswith("["):
            continue
        end = line.index("]") + 1
        key = tuple(ast.literal_eval(line[:end]))
        cells = line[end:].split()
        r = shapes.get(key)
        if not r or len(cells) < 4:
            continue
        b, hq, hkv, m, n, d = (int(x) for x in key[:6])
        mine = float(r["tflops"])
        gbs = "-"
        if m == 1:
            gbs = f"{2 * b * hkv * n * d * 2 / (float(r['median_ms']) * 1e-3) / 1e9:.0f}"
        f.write(f"| {b} | {hq} | {hkv} | {m} | {n} | {d} | {key[6]} | "
                f"{'yes' if key[7] == '1' else 'no'} | {mine:.2f} | {gbs} | " + " | ".join(cells[:4]) +
                f" | {ratio(f'{mine}', cells[3])} | err {float(r['max_err']):.1e} {r['check']} |\n")
with open(os.path.join(out, "perf.md"), "w") as f:
    f.write("# Performance: fa-mlir's attention kernel beside the anchors\n\n")
    f.write(f"One run on {device}, {datetime.date.today()}. Command (on the GPU machine, after "
            "`scripts/gpu_prepare.sh` here): `bench/run_perf.sh gpu-run OUT`, which runs "
            "`fa-bench gpu-run/bench_kernels.so` (kernels of `bench/attention_bench.mlir` built by "
            "`fa-compile --export-kernels --target=sm_90a`: the Hopper kernel, decode steps on the mma.sync decode kernel) and `anchors.py` in the same call. "
            "fp16, B = 4, H = 32, M = N, TFLOP/s = 4 B H N^2 D / t (halved when causal). Both sides "
            "are timed alike: inputs from N(0, 1), launches enqueued back to back, each behind a "
            "256 MB write that evicts the L2 and between its own device events, the median "
            "reported (the anchors by `triton.testing.do_bench`, ours by fa-bench the same way; "
            "warm-up/timed counts in the last column: fewer than 50/100 where one launch is so "
            "slow that the run would not fit its time budget).\n\n")
    f.write("| D | N | causal | fa-mlir | " + " | ".join(anchor_cols) + " | " +
            " | ".join(f"/ {name}" for name in RATIOS) + " | fa-mlir runs, check |\n")
    f.write("|" + "---|" * (5 + len(anchor_cols) + len(RATIOS)) + "\n")
    for d, n, causal, mine, a, note in rows:
        f.write(f"| {d} | {n} | {'yes' if causal else 'no'} | {mine} | " + " | ".join(a) + " | " +
                " | ".join(ratio(mine, anchor_of(name, a)) for name in RATIOS) + f" | {note} |\n")
    f.write("\n![TFLOP/s against N](perf.png)\n")
    if len(sys.argv) > 2:
        any_table(f, sys.argv[2])
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
