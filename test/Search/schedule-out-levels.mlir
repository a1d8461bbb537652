// schedule-out writes each argument level in the tactics of its index
// (B-0, S-1, M-2 for `a` tiled B, S, M on its columns). Here that does not
// apply: `d`'s tactic M-0 makes the add slice `a` on M by rows, deep tiling
// adopts that slicing when S-1 tiles `a`, and M-2 would then tile `a` on M
// a second time ("tile: value is already tiled on axis"). The writer then
// puts each level in the first tactic of its axis after its previous
// level's (all three in level 0), and the replay gives the same
// device-local program, which computes what the original does.
//
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=a=1 mesh=B=2,S=2,M=2" --partir-manual-partition="axis=S inputs=a=1" --partir-manual-partition="axis=M inputs=a=1;d=0" --toast-auto-partition="axes=B progress=false rollouts=1 schedule-out=%t.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: toast-opt %s --partir-schedule=file=%t.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.auto.mlir %t.replayed.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-run --compare %s %t.replayed.mlir | FileCheck %s --check-prefix=AGREE

// QUIET-NOT: schedule-out
// QUIET-NOT: error
// JSON: "name": "B-0",
// JSON: "a": 1
// JSON: "name": "S-0",
// JSON: "a": 1
// JSON: "name": "M-0",
// JSON-NEXT: "kind": "manual",
// JSON-NEXT: "axis": "M",
// JSON-NEXT: "inputs": {
// JSON-NEXT: "a": 1,
// JSON-NEXT: "d": 0
// JSON-NOT: "name"
// SAME: ok compare
// AGREE: results agree

func.func @main(%a: tensor<8x8xf32> {jax.arg_info = "a"},
                %d: tensor<8xf32> {jax.arg_info = "d"}) -> tensor<8x8xf32> {
  %b = stablehlo.broadcast_in_dim %d, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
