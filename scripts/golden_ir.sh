#!/usr/bin/env bash
# The md5 of every IR fa-opt generates from a set of inputs, one line each:
# refactorings that must not change behaviour compare this list before and
# after (issue 36's rule).
#   scripts/golden_ir.sh FA_OPT INPUT_DIR > list.txt
# For each .mlir under INPUT_DIR (give a copy of test/ plus
# bench/attention_bench.mlir, so that moving tests does not change paths):
# fusion, the fa-check reference, and the lowering of fa ops at every target
# (cpu, gpu, nvvm, nvvm-sm90a); for attention_bench.mlir, also the whole
# pipelines at cpu, sm_80, sm_90, sm_90a and gfx942. Output and diagnostics
# are both hashed, with the exit status.
set -uo pipefail
opt=$(realpath "$1") dir=$2
hash() { # name, then fa-opt arguments
  local name=$1; shift
  local sum
  # gpu.binary records how long codegen took (LLVMIRToISATimeInMs): not IR.
  sum=$( { "$opt" "$@" 2>&1; echo "rc=$?"; } |
    sed -E 's/[A-Za-z]+TimeInMs = [0-9]+ : i64/TIME/g' | md5sum | cut -c1-32)
  printf '%s %s\n' "$sum" "$name"
}
lower() { echo "builtin.module(fa-fuse-attention,fa-lower-attention{target=$1},fa-lower-blockwise{target=$1})"; }
cd "$dir"
find . -name '*.mlir' | LC_ALL=C sort | while read -r f; do
  hash "$f fuse" --fa-fuse-attention "$f"
  hash "$f reference" --pass-pipeline='builtin.module(fa-fuse-attention,fa-decompose-attention)' "$f"
  for t in cpu gpu nvvm nvvm-sm90a; do
    hash "$f lower-$t" --pass-pipeline="$(lower $t)" "$f"
  done
  case $f in
  */attention_bench.mlir)
    hash "$f fa-to-cpu" --fa-to-cpu "$f"
    for c in sm_80 sm_90 sm_90a; do
      hash "$f fa-to-nvvm-$c" --pass-pipeline="builtin.module(fa-to-nvvm{chip=$c})" "$f"
    done
    hash "$f fa-to-rocdl-gfx942" --pass-pipeline='builtin.module(fa-to-rocdl{chip=gfx942})' "$f"
    ;;
  esac
done
