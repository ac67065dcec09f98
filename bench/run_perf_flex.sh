#!/usr/bin/env bash
# On the GPU machine, in one run: fa-bench on every shape of SHAPES_FILE (default
# bench/shapes_flex.txt: masks and score modifications) and anchors_flex.py (PyTorch
# FlexAttention and SDPA with the mask as a dense bias) on the same shapes but the sinks
# rows, which anchors_flex.py has no kind for. Both count TFLOP/s over the visible (q, k)
# pairs; the document rows get anchors_flex.py's lengths (its torch draw, made here when
# python3 has torch and the document rows share one L and N; else fa-bench draws its own
# lengths of the same distribution and the pair counts differ). anchors_flex.py is taken
# from GPU_RUN_DIR (copy it there: cp ../shared/bench/anchors_flex.py gpu-run/) or
# ../shared/bench.
# usage: run_perf_flex.sh GPU_RUN_DIR OUT_DIR [SHAPES_FILE]
set -uo pipefail
RUN=$1; OUT=$2; SHAPES=${3:-bench/shapes_flex.txt}
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/$RUN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p $OUT
tag=$(basename $SHAPES .txt); tag=${tag#shapes_}
shapes=()
while read -r b hq hkv m n d t kind p; do
  case "$b" in ''|\#*) continue ;; esac
  shapes+=("--shape=$b,$hq,$hkv,$m,$n,$d,$t,$kind${p:+,$p}")
done < $SHAPES
# anchors_flex.py's document lengths: torch.randint(L // 2, 3 * L // 2 + 1) from seed 0.
doclens=$(python3 - "$SHAPES" 2>/dev/null <<'EOF'
import sys, torch
rows = {(int(w[8]), int(w[4])) for w in (l.split() for l in open(sys.argv[1]))
        if len(w) > 8 and not w[0].startswith("#") and w[7] == "document"}
if len(rows) == 1:
    (p, N), = rows
    g = torch.Generator().manual_seed(0); lens, n = [], 0
    while n < N:
        l = int(torch.randint(p // 2, 3 * p // 2 + 1, (1,), generator=g)); lens.append(min(l, N - n)); n += lens[-1]
    print(",".join(map(str, lens)))
EOF
)
[ -n "$doclens" ] && shapes+=("--doc-lengths=$doclens") && echo "document lengths (anchors_flex.py's): $doclens"
$RUN/fa-bench $RUN/bench_kernels.so "${shapes[@]}" --csv=$OUT/fa_bench_$tag.csv \
  --budget-s=${FA_BENCH_BUDGET:-5} | tee $OUT/fa_bench_$tag.txt
anchors=$RUN/anchors_flex.py
[ -f $anchors ] || anchors=../shared/bench/anchors_flex.py
if [ ! -f $anchors ]; then
  echo "run_perf_flex.sh: no anchors_flex.py in $RUN or ../shared/bench: not run" | tee $OUT/anchors_$tag.txt
  exit 1
fi
grep -v -E '^[^#]*[[:space:]]sinks([[:space:]]|$)' $SHAPES > $OUT/shapes_${tag}_anchors.txt
timeout ${FA_ANCHORS_TIMEOUT:-450} python3 $anchors $OUT/shapes_${tag}_anchors.txt 2>&1 |
  tee $OUT/anchors_$tag.txt
