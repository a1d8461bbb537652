// Propagation visits ops in program order, so pinning one op can change
// which evidence reaches a later op first. Here the search's state (saved
// below as partir.* attributes; min-dims=1000 leaves the search no action,
// so the pass writes that state) loops the dot `%a` over its rows on S,
// which propagation from the arguments cannot decide (`x` points at its
// rows, `w1` at its contracting dimension). Asking `%a` for its rows
// (`"#0": "operand0:0"`) fixes it, but then `%c2` is row-tiled before the
// second dot `%b` is visited (before, `r` made it so only afterwards), `%b`
// meets a conflict (rows of `%c2`, columns of `w2`) and it and its three
// readers lose their loop: 8 differences where there were 2, so the
// greedy repair rejects every repair of `%a` (and of its group), and no
// repair of `%b` is offered while `%b` is still right. The writer then
// takes a detour: it accepts a repair that makes its op loop as the search
// does though others break, repairs on from there (`%b`'s columns), and
// keeps the result as it ends with fewer differences (none).
//
// RUN: toast-opt %s --toast-auto-partition="progress=false rollouts=1 min-dims=1000 schedule-out=%t.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// The replay starts from the program without the saved state:
// RUN: sed -E -e 's/(, )?partir\.(tiling|loops) = \[[^]]*\]//g' -e 's/ \{\}//g' %s > %t.plain.mlir
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.mlir
// RUN: toast-opt %t.plain.mlir --partir-schedule=file=%t.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.auto.mlir %t.replayed.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-run --compare %t.plain.mlir %t.replayed.mlir | FileCheck %s --check-prefix=AGREE

// QUIET-NOT: schedule-out
// QUIET-NOT: error
// JSON: "name": "S-0",
// JSON-DAG: "x": 0,
// JSON-DAG: "w2": 1,
// JSON-DAG: "#0": "operand0:0",
// JSON-DAG: "#3": {{1|"operand1:1"}}
// PLAIN-NOT: partir.{{loops|tiling}} = {{\[}}"
// SAME: ok compare
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["S"=2]>} {
func.func @main(%x: tensor<8x8xf32> {partir.name = "x", partir.tiling = ["S:0"]},
                %w1: tensor<8x8xf32> {partir.name = "w1", partir.tiling = ["S:0"]},
                %w2: tensor<8x8xf32> {partir.name = "w2", partir.tiling = ["S:1"]},
                %r: tensor<8x8xf32> {partir.name = "r", partir.tiling = ["S:0"]}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %a = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] {partir.loops = ["S:0"]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = stablehlo.tanh %a {partir.loops = ["S:0"]} : tensor<8x8xf32>
  %c2 = stablehlo.tanh %c {partir.loops = ["S:0"]} : tensor<8x8xf32>
  %b = stablehlo.dot_general %c2, %w2, contracting_dims = [1] x [0] {partir.loops = ["S:1"]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = stablehlo.tanh %b {partir.loops = ["S:1"]} : tensor<8x8xf32>
  %e2 = stablehlo.tanh %e1 {partir.loops = ["S:1"]} : tensor<8x8xf32>
  %e3 = stablehlo.tanh %e2 {partir.loops = ["S:1"]} : tensor<8x8xf32>
  %y = stablehlo.add %c2, %r {partir.loops = ["S:0"]} : tensor<8x8xf32>
  return %e3, %y : tensor<8x8xf32>, tensor<8x8xf32>
}
}
