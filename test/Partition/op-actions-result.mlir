// "resultR:D" (docs/schedules.md) asks op N to loop over the tactic's axis
// on the factor that dimension D of its result R maps: the op action for
// ops without operands, such as the iota of a causal mask, which
// "operandO:D" cannot name. With the columns of x tiled on B, the iota
// along its columns (not a tileable factor) stays whole; asked to loop over
// its rows, it computes row blocks, which its reader gathers. The
// partitioned program computes what the original does; the request is
// saved (partir.op_tiles).
//
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=1 mesh=B=4" | FileCheck %s --check-prefix=COLS
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=1;#0=result0:0 mesh=B=4" | FileCheck %s --check-prefix=ROWS
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=1;#0=result0:0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.rows.mlir
// RUN: FileCheck %s --check-prefix=LOCAL < %t.rows.mlir
// RUN: toast-run --compare %s %t.rows.mlir | FileCheck %s --check-prefix=AGREE
// RUN: echo '{"mesh": {"B": 4}, "tactics": [{"name": "BP", "kind": "manual", "axis": "B", "inputs": {"x": 1, "#0": "result0:0"}}]}' > %t.json
// RUN: toast-opt %s --partir-schedule=file=%t.json --partir-lower-to-hlo -o %t.rows-json.mlir
// RUN: diff %t.rows.mlir %t.rows-json.mlir
//
// Bad input is a located error:
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#0=result1:0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#0=result0:2 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=result0:0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NOTOP
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#0=result0:0 mesh=B=3" 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: echo '{"mesh": {"B": 4}, "tactics": [{"name": "K", "kind": "manual", "axis": "B", "inputs": {"#0": "result:0"}}]}' > %t.bad.json
// RUN: not toast-opt %s --partir-schedule=file=%t.bad.json 2>&1 | FileCheck %s --check-prefix=JSONSPEC

// COLS: stablehlo.iota dim = 1 : tensor<8x8xi32>
// ROWS: stablehlo.iota dim = 1 {partir.loops = ["B:0"], partir.op_tiles = ["B:0"]}
// LOCAL: stablehlo.iota dim = 1 : tensor<2x8xi32>
// AGREE: results agree
// RESULT: error: tactic 'BP': selector '#0' (stablehlo.iota): result 1 is out of range (the op has 1 result)
// DIM: error: tactic 'BP': selector '#0' (stablehlo.iota): dimension 2 is out of range for result 0 of type 'tensor<8x8xi32>'
// NOTOP: error: tactic 'BP': "result0:0" acts on an op: select it by position, "#N" (not 'x')
// DIVIDE: error: tile: op 'stablehlo.iota' cannot loop over factor 0 of size 8 in 3 tiles (axis "B" has size 3)
// JSONSPEC: error: in schedule '{{.*}}': schedule.tactics[0].inputs.#0: expected a dimension, "first_divisible", "replicated", "operandO:D", "resultR:D" (each with an optional position "@P") or "whole_op"

func.func @main(%x: tensor<8x8xf32> {partir.name = "x"}) -> tensor<8x8xf32> {
  %i = stablehlo.iota dim = 1 : tensor<8x8xi32>
  %c = stablehlo.convert %i : (tensor<8x8xi32>) -> tensor<8x8xf32>
  %s = stablehlo.add %x, %c : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
