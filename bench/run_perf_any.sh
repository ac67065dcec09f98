#!/usr/bin/env bash
# On the GPU machine, in one run: fa-bench on every shape of bench/shapes_any.txt and
# ../shared/bench/anchors_any.py (PyTorch SDPA's flash, cuDNN and efficient backends) on
# the same shapes. usage: run_perf_any.sh GPU_RUN_DIR OUT_DIR
set -uo pipefail
RUN=$1; OUT=$2
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/$RUN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p $OUT
shapes=()
while read -r b hq hkv m n d t c; do
  case "$b" in ''|\#*) continue ;; esac
  shapes+=("--shape=$b,$hq,$hkv,$m,$n,$d,$t,$c")
done < bench/shapes_any.txt
$RUN/fa-bench $RUN/bench_kernels.so "${shapes[@]}" --csv=$OUT/fa_bench_any.csv \
  --budget-s=${FA_BENCH_BUDGET:-5} | tee $OUT/fa_bench_any.txt
timeout 420 python3 $RUN/anchors_any.py bench/shapes_any.txt 2>&1 | tee $OUT/anchors_any.txt
