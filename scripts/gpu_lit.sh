#!/usr/bin/env bash
# The lit tests for the GPU (test/Runtime/GPU, REQUIRES: cuda-gpu) on a GPU
# machine that has the driver but no LLVM/MLIR (the lent device machine):
#   scripts/gpu_lit.sh prepare   here, after ./fa.sh build: gathers into
#                                gpu-lit/ what those tests need (the build's
#                                runtime, fa-run, test programs, models
#                                compiled at build time; lit, FileCheck, libz3)
#   scripts/gpu_lit.sh run       there, from the repository root: puts them
#                                where the build's lit.site.cfg.py expects them
#                                and runs the GPU tests and the runtime tests
# A GPU machine with the full build runs them with ./fa.sh check instead.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${FA_BUILD_DIR:-build}
LLVM=/usr/lib/llvm-22
case "${1:-}" in
  prepare)
    rm -rf gpu-lit && mkdir -p gpu-lit/build/{tools,lib,test/bin} gpu-lit/llvm/{bin,lib,utils}
    cp $B/tools/fa-run gpu-lit/build/tools/
    cp $B/lib/libfa_rt_*.so gpu-lit/build/lib/
    cp $B/test/bin/fa-rt-errors-* $B/test/bin/fake-gpu-driver*.so gpu-lit/build/test/bin/
    cp -r $B/test/gpu-models $B/test/lit.site.cfg.py gpu-lit/build/test/
    cp -r $LLVM/utils/lit gpu-lit/llvm/utils/
    cp -L $LLVM/bin/FileCheck $LLVM/bin/not gpu-lit/llvm/bin/
    cp -L /lib/x86_64-linux-gnu/libz3.so.4 gpu-lit/llvm/lib/
    tar -C gpu-lit -cJf gpu-lit/llvm.tar.xz llvm && rm -rf gpu-lit/llvm
    du -sh gpu-lit ;;
  run)
    src=$(sed -n 's/^config.fa_src_root = "\(.*\)"$/\1/p' gpu-lit/build/test/lit.site.cfg.py)
    [ -e "$src" ] || { mkdir -p "$(dirname "$src")"; ln -s "$PWD" "$src"; }
    rm -rf build && cp -r gpu-lit/build build
    mkdir -p $LLVM && tar -C $LLVM --strip-components=1 -xJf gpu-lit/llvm.tar.xz
    export LD_LIBRARY_PATH=$LLVM/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    python3 -c "import sys; sys.path.insert(1, '$LLVM/utils/lit'); from lit.main import main; main()" \
      -v build/test/Runtime/GPU build/test/Runtime/runtime-errors.c ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
