#!/usr/bin/env bash
# fa-mlir: set up, build, test and demo on a fresh Debian 12 machine.
#   ./fa.sh example   fuse attention in a bundled model with fa-opt and show it
#   ./fa.sh check     build and run the whole lit test suite
#   ./fa.sh build     only set up and build
set -euo pipefail
cd "$(dirname "$0")"
LLVM=/usr/lib/llvm-22
PKGS="llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22 cmake make gcc g++"
BUILD=${FA_BUILD_DIR:-build}

setup() {
  local missing=""
  for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  [ -z "$missing" ] && return 0
  echo "fa.sh: installing$missing" >&2
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

build() {
  setup
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$BUILD" -j "$(nproc)"
}

# The whole path on one exported model (GPT-2 block, torch-mlir linalg):
# fuse (with the matcher's remarks), lower, compile, run on the CPU against the
# unfused reference, and on an NVIDIA GPU when one and its driver are present.
example() {
  local model=test/Models/gpt2_block.linalg.mlir tools=$BUILD/tools
  local out; out=$(mktemp -d); trap 'rm -rf "$out"' RETURN
  step() { printf '\n== %s\n' "$*" >&2; }
  step "1. fuse: fa-opt --fa-fuse=explain $model"
  "$tools/fa-opt" --fa-fuse=explain "$model" -o "$out/fused.mlir"
  grep -m1 -A1 '"fa.gridwise_attention"' "$out/fused.mlir"
  step "2. lower to PTX: fa-opt --pass-pipeline='builtin.module(fa-to-nvvm{chip=sm_80})'"
  "$tools/fa-opt" --pass-pipeline='builtin.module(fa-to-nvvm{chip=sm_80})' "$model" |
    grep -o 'gpu.binary @[A-Za-z0-9_]*' | sed 's/gpu.binary @/kernel (PTX): /' | sed -n '1,8p'
  step "3. compile for the CPU: fa-compile --target=cpu $model -o model.so"
  "$tools/fa-compile" --target=cpu "$model" -o "$out/model.so"
  step "4. check: fused vs unfused (upstream MLIR), fa-check --save=ref --input-scale=0.1"
  mkdir -p "$out/ref"
  "$tools/fa-check" --input-scale=0.1 --save="$out/ref" "$model"
  step "5. run the compiled model on the recorded inputs: fa-run model.so ref"
  "$tools/fa-run" "$out/model.so" "$out/ref"
  local cc
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d . || true)
  if [ -n "$cc" ]; then
    step "6. on the GPU: fa-compile --target=sm_$cc, fa-run"
    "$tools/fa-compile" --target="sm_$cc" "$model" -o "$out/gpu.so"
    LD_LIBRARY_PATH=$BUILD/lib "$tools/fa-run" "$out/gpu.so" "$out/ref"
  else
    step "6. no NVIDIA GPU here: skipped the run on the GPU"
  fi
}

case "${1:-}" in
  build) build ;;
  check) build; "$LLVM/bin/lit" -sv "$BUILD/test" ;;
  example) build; example ;;
  *) echo "usage: $0 {example|check|build}" >&2; exit 2 ;;
esac
