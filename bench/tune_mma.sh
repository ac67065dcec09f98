#!/usr/bin/env bash
# The tile sweep behind the tuning table of lib/Transforms/GPU/AttentionMma.c.
#   bench/tune_mma.sh prepare   here (with MLIR): gpu-run/var/k_BM_BN_W.so, the
#                               benchmark kernels with the tiles forced by the
#                               op's block_m / block_n / warps attributes
#   bench/tune_mma.sh run       on the GPU machine: fa-bench on each of them
# Output: one fa-bench row per (tiles, shape); bench/tune_mma.txt holds a run.
set -uo pipefail
cd "$(dirname "$0")/.."
TILES=${FA_TUNE_TILES:-"128,64,4 128,32,8 64,64,4 64,32,4 128,64,8"}
SHAPES=${FA_TUNE_SHAPES:-"4,32,4096,64,0 4,32,4096,64,1 4,32,4096,128,0 4,32,4096,128,1"}
case "${1:-}" in
  prepare)
    B=${FA_BUILD_DIR:-build}
    mkdir -p gpu-run/var
    for t in $TILES; do
      IFS=, read -r bm bn w <<<"$t"
      sed "s/scale = \([0-9.]*\) : f32/scale = \1 : f32, block_m = $bm : i64, block_n = $bn : i64, warps = $w : i64/" \
        bench/attention_bench.mlir > gpu-run/var/tiles.mlir
      $B/tools/fa-compile --export-kernels --target=sm_90 gpu-run/var/tiles.mlir \
        -o gpu-run/var/k_${bm}_${bn}_${w}.so || echo "tiles $t: not compiled"
    done
    rm -f gpu-run/var/tiles.mlir ;;
  run)
    export LD_LIBRARY_PATH=$PWD/gpu-run${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for k in gpu-run/var/*.so; do
      echo "== $(basename $k .so)"
      for s in $SHAPES; do
        timeout 60 gpu-run/fa-bench $k --shape=$s --budget-s=1 | tail -1
      done
    done ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
