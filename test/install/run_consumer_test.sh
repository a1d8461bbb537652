#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, builds the consumer
# project against it with find_package(Toast), and runs it.
# Usage: run_consumer_test.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -euo pipefail
build_dir=$1
consumer_src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$consumer_src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" "${launcher[@]}" >/dev/null
cmake --build "$work/build" -j2 >/dev/null
output=$("$work/build/toast-consumer" 2>&1)
echo "$output"
grep -q "toast-op-summary: 4 ops in 1 function" <<<"$output"
grep -q "consumer: ok" <<<"$output"
