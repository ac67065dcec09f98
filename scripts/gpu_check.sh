#!/usr/bin/env bash
# On the GPU machine: runs every case of gpu-run/ (made by gpu_prepare.sh)
# with fa-run (two calls each, on fresh input buffers) and compares with the
# CPU reference; then compute-sanitizer
# memcheck and racecheck on a few attention cases. Prints a summary.
cd "$(dirname "$0")/../gpu-run"
export LD_LIBRARY_PATH=$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
pass=0; fail=0; failed=""
for dir in cases/*/; do
  name=$(basename $dir)
  if ./fa-run $dir/model.so $dir --repeat=2 > $dir/gpu.txt 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); failed="$failed $name"; tail -3 $dir/gpu.txt; fi
done
echo "GPU correctness (sm_90, fa-run vs CPU reference): $pass cases agree, $fail fail:$failed"
grep -h "output" cases/*/gpu.txt | grep -c " ok" | sed 's/^/outputs ok: /'
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for c in attention_tosa linalg-named_0 masks_0 sweep_3; do
  for tool in memcheck racecheck; do
    [ -d cases/$c ] || continue
    # API errors are the runtime probing pointers (cuPointerGetAttribute on host
    # memory before registering it): expected, so not reported.
    $SAN --tool $tool --report-api-errors no --error-exitcode 9 ./fa-run cases/$c/model.so cases/$c --repeat=2 > san.txt 2>&1
    echo "compute-sanitizer $tool $c: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san.txt | head -1)"
    grep -m3 "=========  *Invalid\|Program hit" san.txt
  done
done
[ "$fail" -eq 0 ]
