#!/usr/bin/env bash
# Set up and build, then run every test (lit, gtest, corpus, robustness,
# install consumer, benchmark smoke) through ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
build=${TOAST_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j2
