#!/usr/bin/env bash
# On the GPU machine, one call: correctness (gpu_check.sh: every case against
# the CPU reference, compute-sanitizer), the instruction mix of the
# tensor-core kernels' SASS (sm_90a: the Hopper kernel where it applies), then the benchmark beside the anchors
# (bench/run_perf.sh). Everything lands in OUT. usage: gpu_all.sh OUT
set -uo pipefail
OUT=$1
cd "$(dirname "$0")/.."
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee $OUT/device.txt
scripts/gpu_check.sh 2>&1 | tee $OUT/gpu_check.txt | tail -25
# SASS of the benchmark kernels (PTX from gpu_prepare.sh, compressed there,
# assembled here).
gunzip -f gpu-run/ptx/*.ptx.gz
for f in gpu-run/ptx/*.ptx; do
  ptxas -v -arch=sm_90a $f -o ${f%.ptx}.cubin 2>&1 | grep -E "registers|spill" | tr '\n' ' '
  echo " <- $(basename $f)"
  cuobjdump --dump-sass ${f%.ptx}.cubin > ${f%.ptx}.sass
  grep -oE "^ +/\*[0-9a-f]+\*/ +[A-Z][A-Z0-9_.]*" ${f%.ptx}.sass |
    awk '{print $2}' | sort | uniq -c | sort -rn > ${f%.ptx}.mix
  grep -E " (HGMMA|UTMALDG|UTMASTG|SYNCS|WARPGROUP|HMMA|LDSM|LDGSTS|LDL|STL|SHFL|MUFU|BAR)" ${f%.ptx}.mix | tr '\n' ' '; echo
done > $OUT/sass_mix.txt
cat $OUT/sass_mix.txt
# Whether each Hopper kernel's softmax runs beside its P V (test/Integration/hopper-sass.test).
python3 test/Integration/sass_overlap.py gpu-run/ptx/*_main*_kernel.sass | tee $OUT/sass_overlap.txt
bench/run_perf.sh gpu-run $OUT 2>&1 | tail -40
