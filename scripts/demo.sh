#!/usr/bin/env bash
# Set up and build, then run the main job on the bundled example
# (examples/mlp.mlir, the two-layer MLP of the papers) on a 4x2 mesh of
# A100s: partition it automatically (TOAST) and with a manual schedule
# (PartIR), lower both to device-local SPMD programs with collectives,
# estimate their step time and memory, and run them on 8 simulated devices
# to show they compute what the original does.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
bin=${TOAST_BUILD_DIR:-$root/build}/bin
example=$root/examples/mlp.mlir
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lower=(--partir-lower-to-hlo --partir-optimize-collectives
       --partir-simulate=device=a100)

echo "== The program"
"$bin/toast-opt" "$example" --toast-op-summary -o /dev/null

echo
echo "== Automatic partitioning (TOAST: named dimensions + MCTS), then lowering"
"$bin/toast-opt" "$example" \
  --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 budget-s=10 threads=2" \
  "${lower[@]}" -o "$out/auto.mlir"

echo
echo "== Manual schedule (PartIR: batch on B, Megatron on M), then lowering"
"$bin/toast-opt" "$example" \
  --partir-schedule="file=$root/examples/mlp-schedule.json" \
  "${lower[@]}" -o "$out/manual.mlir"
echo
grep -m3 -E "func.func|partir_hlo\.[a-z_]+ " "$out/manual.mlir" | cut -c1-160

echo
echo "== Do the partitioned programs compute what the original does?"
"$bin/toast-run" --compare "$example" "$out/auto.mlir"
"$bin/toast-run" --compare "$example" "$out/manual.mlir"
