#!/usr/bin/env bash
# On the GPU machine: runs every case of gpu-run/ (made by gpu_prepare.sh)
# with fa-run (two calls each, on fresh input buffers) and compares with the
# CPU reference; then compute-sanitizer
# memcheck, racecheck and synccheck on the cases listed below: of the mma.sync
# kernels (sm_90) and of the Hopper kernel (sm_90a).
# Prints a summary; fails if a case disagrees or a sanitizer reports anything.
cd "$(dirname "$0")/../gpu-run"
export LD_LIBRARY_PATH=$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The case libraries travel compressed (gpu_prepare.sh).
for z in cases/*/*.so.gz; do [ -e "$z" ] && gunzip -f "$z"; done
all_fail=0
for target in sm_90 sm_90a; do
  model=model.so; [ $target = sm_90a ] && model=model_sm90a.so
  pass=0; fail=0; failed=""
  for dir in cases/*/; do
    name=$(basename $dir)
    if ./fa-run $dir/$model $dir --repeat=2 > $dir/gpu_$target.txt 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); failed="$failed $name"; tail -3 $dir/gpu_$target.txt; fi
  done
  echo "GPU correctness ($target, fa-run vs CPU reference): $pass cases agree, $fail fail:$failed"
  grep -h "output" cases/*/gpu_$target.txt | grep -c " ok" | sed 's/^/outputs ok: /'
  all_fail=$((all_fail+fail))
done
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
# The f32 portable kernel on three inputs, and the tensor-core kernel on ten sweep
# variants (gen_sweep.py 7 48): D 96 with M = 1 and padding (0), D 256 GQA with
# fully padded rows (6), D 80 bf16 kv_len GQA (7), causal offset -16 with a bias
# (21), Dv 256 != D 16 bf16 (22), causal -36 GQA bf16 padded (27), causal GQA
# (28), M = 1 bf16 bias kv_len (31), causal kv_len tails (37), causal +2 (41);
# keys split over workgroups, the last split merging (at most 4 rows): GQA with
# lse (split-keys_0), causal kv_len with masked batches (split-keys_1; D 64: two
# stages of swizzled tiles), D 256 with a bias (split-keys_2: two warps, swizzled
# tiles); the combine kernel merging 16 rows with f32 O, lse and empty splits
# (split-keys_3); on [B, S, H, D] tensors (bshd.mlir: strided rows), the decode kernel
# packing heads (bshd_2).
san_fail=0
# sanitize CASE MODEL: the three tools on one case's model (.so in cases/CASE).
sanitize() {
  local c=$1 model=$2 tag=${2%.so}
  [ -d cases/$c ] || return 0
  for tool in memcheck racecheck synccheck; do
    local log=cases/$c/san_${tool}_$tag.txt
    # API errors are the runtime probing pointers (cuPointerGetAttribute on host
    # memory before registering it): expected, so not reported.
    $SAN --tool $tool --report-api-errors no --error-exitcode 9 ./fa-run cases/$c/$model cases/$c --repeat=2 > $log 2>&1
    local rc=$?
    echo "compute-sanitizer $tool $c ($tag): rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | head -1)"
    [ $rc -eq 0 ] || { san_fail=$((san_fail+1)); grep -m6 -E "=========  *(Invalid|Race|Warning|Error|Barrier)|Program hit|at .* in " $log; }
  done
}
# FA_SAN_MMA / FA_SAN_HOPPER replace the case lists (a shorter device call).
for c in ${FA_SAN_MMA:-attention_tosa linalg-named_0 masks_0 sweep_0 sweep_6 sweep_7 sweep_21 \
         sweep_22 sweep_27 sweep_28 sweep_31 sweep_37 sweep_41 split-keys_0 split-keys_1 split-keys_2 \
         split-keys_3 bshd_2}; do
  sanitize $c model.so
done
# The Hopper kernel (sm_90a: TMA, mbarriers, wgmma) on its inputs (hopper.mlir's chunks): GQA
# with tails, causal with lse (few keys), fully masked rows with f32 O, bias with kv_len, Dv != D,
# kv_len with few keys and with many (the V zeroing of the one-consumer kernel and of the
# four-consumer one), the persistent kernel (workgroups of several work items) with kv_len
# and lse, with f32 O, without keys, and under a causal mask in groups of two items, and
# the few-keys kernel on peaked scores (S issued again where the softmax without the row
# max does not hold), also causal with lse in bf16 (hopper_17); on [B, S, H, D] tensors
# (TMA maps of strided views), the persistent kernel with GQA and lse (bshd_0) and the
# one-consumer kernel with kv_len (bshd_1).
# Data masks on the persistent kernel (score-mod-gpu.mlir): documents straddling a work item's
# two consumers (_14), ids repeating in runs (_15) and two rounds of the key-range table's work
# order with GQA and a ragged last tile (_16).
for c in ${FA_SAN_HOPPER:-hopper_0 hopper_1 hopper_3 hopper_4 hopper_5 hopper_10 hopper_15 \
         hopper_11 hopper_12 hopper_13 hopper_14 hopper_16 hopper_17 bshd_0 bshd_1 \
         score-mod-gpu_14 score-mod-gpu_15 score-mod-gpu_16}; do
  sanitize $c model_sm90a.so
done
echo "compute-sanitizer: $san_fail runs reported problems"
[ "$all_fail" -eq 0 ] && [ "$san_fail" -eq 0 ]
