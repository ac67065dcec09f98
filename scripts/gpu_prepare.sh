#!/usr/bin/env bash
# Builds, here (with MLIR), everything the GPU correctness run needs, into
# gpu-run/: the runtime, fa-run, fa-bench, each test input compiled for sm_90
# and for sm_90a (the Hopper kernel) by fa-compile, and fa-check's CPU inputs and reference outputs beside it.
# Then scripts/gpu_check.sh runs it on the GPU machine (no MLIR there).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${FA_BUILD_DIR:-build}
OUT=gpu-run
rm -rf $OUT && mkdir -p $OUT/cases
cp $B/lib/libfa_rt_cuda.so $B/tools/fa-run $B/tools/fa-bench $OUT/
# One module per case: split multi-chunk inputs.
split() { # FILE PREFIX
  python3 - "$1" "$2" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
for i, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
    if "func.func" in chunk:
        open(f"{sys.argv[2]}_{i}.mlir", "w").write(chunk)
PY
}
T=$OUT/src && mkdir -p $T
if [ -n "${FA_GPU_CASES:-}" ]; then
  # Only the files FA_GPU_CASES names (a quick run of new cases).
  for f in $FA_GPU_CASES; do split $f $T/$(basename $f .mlir); done
else
  for f in test/Fusion/linalg-named.mlir test/Fusion/spellings.mlir \
           test/Fusion/masks.mlir test/Fusion/half-precision.mlir \
           test/Integration/Inputs/split-keys.mlir \
           test/Integration/Inputs/hopper.mlir test/Integration/Inputs/bshd.mlir \
           test/Fusion/layouts.mlir test/Integration/Inputs/score-mod-gpu.mlir \
           test/Fusion/softcap.mlir test/Fusion/fill-in-score-mod.mlir; do
  split $f $T/$(basename $f .mlir); done
  cp examples/attention_*.mlir $T/
  for m in bert_layer gpt2_block llama_block; do
    cp test/Models/$m.linalg.mlir $T/model_$m.linalg.mlir
    cp test/Models/$m.tosa.mlir $T/model_$m.tosa.mlir
  done
  for f in test/Models/half_*.mlir test/Models/mask_gemma2_softcap_pad_*.mlir \
           test/Models/mask_alibi_bloom_*.mlir; do
    cp $f $T/model_$(basename $f)
  done
  python3 test/Integration/gen_sweep.py 7 48 $T/sweep.mlir 1
  split $T/sweep.mlir $T/sweep && rm $T/sweep.mlir
fi
for f in $T/*.mlir; do
  name=$(basename $f .mlir); dir=$OUT/cases/$name; mkdir -p $dir
  extra=""
  case $name in model_*) extra="--input-scale=0.1";; esac
  case $name in model_bert*) extra="$extra --binary-arg=1";; esac
  case $name in model_half_encoder_padmask*) extra="$extra --int-max=1";; esac
  case $name in model_half_kv_decode*) extra="$extra --int-max=47";; esac
  case $name in model_mask_gemma2_softcap_pad_bf16*) extra="$extra --int-max=1";; esac
  case $name in split-keys_*) extra="--int-max=800";; esac
  extra="$extra $(sed -n 's|^// gpu-check-args: ||p' $f)"
  $B/tools/fa-check $extra --save=$dir $f > $dir/cpu.txt 2>&1 || echo "cpu check failed: $name"
  $B/tools/fa-compile --target=sm_90 $f -o $dir/model.so
  $B/tools/fa-compile --target=sm_90a $f -o $dir/model_sm90a.so
  # (Symbol tables are not needed there, and the libraries go compressed
  # (gpu_check.sh unpacks them): what travels stays under 64 MiB.)
  strip --strip-unneeded $dir/model.so $dir/model_sm90a.so
  gzip -1 $dir/model.so $dir/model_sm90a.so
done
# The benchmark kernels for Hopper (sm_90a: the wgmma kernel where the head
# dims allow it), their PTX (gpu_all.sh reads their SASS) and the anchors.
$B/tools/fa-compile --export-kernels --target=sm_90a bench/attention_bench.mlir -o $OUT/bench_kernels.so
$B/tools/fa-opt --pass-pipeline="builtin.module(fa-to-nvvm{chip=sm_90a})" bench/attention_bench.mlir |
  python3 test/Integration/gpu_objects.py $OUT/ptx > /dev/null
# (Compressed: what travels to the GPU machine must stay under 64 MiB.)
gzip -9 $OUT/ptx/*.ptx
cp ../shared/bench/anchors.py ../shared/bench/anchors_flex.py $OUT/ 2>/dev/null || true
# anchors_any.py as it is, but printing two decimals: its decode rows (a few
# TFLOP/s) would otherwise be compared with whole numbers.
sed 's/:\.0f}/:.2f}/g' ../shared/bench/anchors_any.py > $OUT/anchors_any.py 2>/dev/null || true
rm -rf $T
du -sh $OUT
