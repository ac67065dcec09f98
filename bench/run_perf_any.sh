#!/usr/bin/env bash
# On the GPU machine, in one run: fa-bench on every shape of SHAPES_FILE (default
# bench/shapes_any.txt) and ../shared/bench/anchors_any.py (PyTorch SDPA's flash, cuDNN and
# efficient backends) on the same shapes. With `bshd` also fa-bench --layout=bshd (the same
# kernels on [B, S, H, D] tensors) and bench/anchors_bshd.py (SDPA on [B, S, H, D] views).
# usage: run_perf_any.sh GPU_RUN_DIR OUT_DIR [SHAPES_FILE [bshd]]
set -uo pipefail
RUN=$1; OUT=$2; SHAPES=${3:-bench/shapes_any.txt}; LAYOUT=${4:-}
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/$RUN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p $OUT
tag=$(basename $SHAPES .txt); tag=${tag#shapes_}
shapes=()
while read -r b hq hkv m n d t c; do
  case "$b" in ''|\#*) continue ;; esac
  shapes+=("--shape=$b,$hq,$hkv,$m,$n,$d,$t,$c")
done < $SHAPES
$RUN/fa-bench $RUN/bench_kernels.so "${shapes[@]}" --csv=$OUT/fa_bench_$tag.csv \
  --budget-s=${FA_BENCH_BUDGET:-5} | tee $OUT/fa_bench_$tag.txt
if [ "$LAYOUT" = bshd ]; then
  $RUN/fa-bench $RUN/bench_kernels.so --layout=bshd "${shapes[@]}" --csv=$OUT/fa_bench_${tag}_bshd.csv \
    --budget-s=${FA_BENCH_BUDGET:-5} | tee $OUT/fa_bench_${tag}_bshd.txt
  timeout 300 python3 bench/anchors_bshd.py $SHAPES 2>&1 | tee $OUT/anchors_${tag}_bshd.txt
fi
timeout 420 python3 $RUN/anchors_any.py $SHAPES 2>&1 | tee $OUT/anchors_$tag.txt
