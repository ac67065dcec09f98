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

case "${1:-}" in
  build) build ;;
  check) build; "$LLVM/bin/lit" -sv "$BUILD/test" ;;
  example)
    build
    echo "== fa-opt --fa-fuse=explain examples/attention_linalg_named.mlir" >&2
    "$BUILD/tools/fa-opt" --fa-fuse=explain examples/attention_linalg_named.mlir ;;
  *) echo "usage: $0 {example|check|build}" >&2; exit 2 ;;
esac
