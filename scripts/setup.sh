#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks, then configures and builds
# Toast in ./build (Release, Ninja, -j2, ccache when available).
# Sourced by demo.sh and test.sh; usable alone: scripts/setup.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
packages=(cmake ninja-build g++ python3 ccache llvm-22-dev llvm-22-tools
          libmlir-22-dev mlir-22-tools libgtest-dev libbenchmark-dev
          pkg-config coinor-libcbc-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "toast: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
build=${TOAST_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
ninja -C "$build" -j2
