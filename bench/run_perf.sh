#!/usr/bin/env bash
# On the GPU machine, in one run: fa-bench on the 12 shapes of spec/perf.md and
# the anchors (anchors.py: PyTorch SDPA backends, Triton, unfused), then
# docs/perf.md and its plot from both. usage: run_perf.sh GPU_RUN_DIR OUT_DIR
set -uo pipefail
RUN=$1; OUT=$2
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/$RUN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
$RUN/fa-bench $RUN/bench_kernels.so --csv=$OUT/fa_bench.csv --budget-s=${FA_BENCH_BUDGET:-10} | tee $OUT/fa_bench.txt
timeout 420 python3 $RUN/anchors.py 2>&1 | tee $OUT/anchors.txt
python3 bench/perf_md.py $OUT
