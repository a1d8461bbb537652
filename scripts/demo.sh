#!/usr/bin/env bash
# Set up and build, then run the main job on the bundled example: parse,
# verify and print examples/mlp.mlir with a one-line summary of its ops.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
build=${TOAST_BUILD_DIR:-$root/build}
"$build/bin/toast-opt" "$root/examples/mlp.mlir" --toast-op-summary
