#!/usr/bin/env bash
# The tile sweep behind the mma.sync rows of lib/Lowering/TileTable.c.
#   bench/tune_mma.sh prepare   here (with MLIR): gpu-run/var/k_D_BM_BN_W[_S[_pP]].so,
#                               the benchmark kernels with the tiles of head dim
#                               D forced by the op's block_m / block_n / warps
#                               (and stages, pv_split) attributes (the other
#                               kernels keep the table's)
#   bench/tune_mma.sh run       on the GPU machine: fa-bench on each of them, on
#                               the shapes of its head dim
# Output: one fa-bench row per (tiles, shape); bench/tune_mma.txt holds a run.
set -uo pipefail
cd "$(dirname "$0")/.."
# D:BM,BN,WARPS[,STAGES[,PV_SPLIT]]
TILES=${FA_TUNE_TILES:-"64:128,64,4 64:128,32,4 64:128,64,8 64:128,128,8 64:64,64,4
  128:128,32,4 128:128,64,4 128:128,32,8 128:128,64,8 128:64,64,4
  256:64,32,4 256:128,32,8 256:128,16,8 80:128,32,4 80:128,64,4 80:128,32,8
  96:128,32,4 96:128,64,4 96:128,32,8"}
# B,H,N per D; each f16, causal off and on.
SIZES=${FA_TUNE_SIZES:-"4,32,1024 4,32,4096"}
case "${1:-}" in
  prepare)
    B=${FA_BUILD_DIR:-build}
    rm -rf gpu-run/var && mkdir -p gpu-run/var
    for t in $TILES; do
      d=${t%%:*}; IFS=, read -r bm bn w s p <<<"${t#*:}"
      python3 - "$d" "$bm" "$bn" "$w" "$s" "$p" > gpu-run/var/tiles.mlir <<'PY'
import re, sys
d, bm, bn, w, s, p = sys.argv[1:]
attrs = f"block_m = {bm} : i64, block_n = {bn} : i64, warps = {w} : i64"
if s:
    attrs += f", stages = {s} : i64"
if p:
    attrs += f", pv_split = {p} : i64"
dim = None
for line in open("bench/attention_bench.mlir"):
    m = re.match(r"func.func @d(\d+)_", line)
    if m:
        dim = m.group(1)
    if dim == d:
        line = re.sub(r"scale = ([0-9.]+) : f32", r"scale = \1 : f32, " + attrs, line)
    sys.stdout.write(line)
PY
      $B/tools/fa-compile --export-kernels --target=sm_90 gpu-run/var/tiles.mlir \
        -o gpu-run/var/k_${d}_${bm}_${bn}_${w}${s:+_$s}${p:+_p$p}.so || echo "tiles $t: not compiled"
    done
    rm -f gpu-run/var/tiles.mlir ;;
  run)
    export LD_LIBRARY_PATH=$PWD/gpu-run${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for k in gpu-run/var/*.so; do
      name=$(basename $k .so); d=$(cut -d_ -f2 <<<"$name")
      echo "== $name"
      shapes=()
      for s in $SIZES; do
        IFS=, read -r b h n <<<"$s"
        shapes+=(--shape=$b,$h,$h,$n,$n,$d,f16,0 --shape=$b,$h,$h,$n,$n,$d,f16,1)
      done
      timeout 60 gpu-run/fa-bench $k "${shapes[@]}" --budget-s=1 | grep "^| [0-9]"
    done ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
