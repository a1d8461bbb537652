// Actions on an op, selected by position (`#N`, docs/schedules.md):
//  * "operandO:D" asks op N to loop over the tactic's axis on the factor
//    that dimension D of its operand O maps, a reduction factor included
//    (ShardingState::tileOp). Here the rows of x are tiled on B, so
//    propagation makes the dot loop over its rows; asked to loop over its
//    contracting factor instead, it reads its first operand through an
//    all_to_all (rows -> columns) and adds its partial sums (all_reduce).
//    No tiling of a value can say this: the operand is already tiled on B.
//  * "whole_op" keeps op N from looping over the axis (ShardingState::
//    atomicOp) while its consumers may still slice its result: the
//    exponential runs on a gathered x and the dot still loops over rows.
//    "replicated" on the same op's result keeps the *value* whole, which
//    forbids the dot's loop over rows too.
// Both are saved (partir.op_tiles, partir.op_atomic) so tactic passes chain,
// and the partitioned programs compute what the original does.
//
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4" | FileCheck %s --check-prefix=ROWS
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0;#1=operand0:1 mesh=B=4" | FileCheck %s --check-prefix=SUM
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0;#1=operand0:1 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.sum.mlir
// RUN: FileCheck %s --check-prefix=SUMLOCAL < %t.sum.mlir
// RUN: toast-run --compare %s %t.sum.mlir | FileCheck %s --check-prefix=AGREE
//
// RUN: toast-opt %s --partir-manual-partition="name=K axis=B inputs=#0=whole_op mesh=B=4" --partir-manual-partition="name=BP axis=B inputs=x=0;y=0" | FileCheck %s --check-prefix=WHOLE
// RUN: toast-opt %s --partir-manual-partition="name=K axis=B inputs=#0=replicated mesh=B=4" --partir-manual-partition="name=BP axis=B inputs=x=0;y=0" | FileCheck %s --check-prefix=VALUE
// RUN: toast-opt %s --partir-manual-partition="name=K axis=B inputs=#0=whole_op mesh=B=4" --partir-manual-partition="name=BP axis=B inputs=x=0;y=0" --partir-materialize-core --partir-lower-to-hlo -o %t.whole.mlir
// RUN: FileCheck %s --check-prefix=WHOLELOCAL < %t.whole.mlir
// RUN: toast-run --compare %s %t.whole.mlir | FileCheck %s --check-prefix=AGREE
//
// The same from a JSON schedule:
// RUN: echo '{"mesh": {"B": 4}, "tactics": [{"name": "K", "kind": "manual", "axis": "B", "inputs": {"#0": "whole_op"}}, {"name": "BP", "kind": "manual", "axis": "B", "inputs": {"x": 0, "y": 0}}]}' > %t.whole.json
// RUN: toast-opt %s --partir-schedule=file=%t.whole.json --partir-lower-to-hlo -o %t.whole-json.mlir
// RUN: diff %t.whole.mlir %t.whole-json.mlir
//
// Bad input is a located error:
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#1=operand0:5 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#1=operand3:0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=OPERAND
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=whole_op mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NOTOP
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#1.0=operand0:1 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NOTOP
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#1=operand0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#9=whole_op mesh=B=4" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#7=whole_op mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NORULE
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#1=operand0:1 mesh=B=3" 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4" --partir-manual-partition="name=MP axis=B inputs=#1=operand0:1" 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: not toast-opt %s --partir-manual-partition="name=K axis=B inputs=#1=whole_op mesh=B=4" --partir-manual-partition="name=BP axis=B inputs=#1=operand0:1" 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4" --partir-manual-partition="name=K axis=B inputs=#1=whole_op" 2>&1 | FileCheck %s --check-prefix=ATOMICLOOPS
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#4=operand0:1 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NOTSUM
// RUN: echo '{"mesh": {"B": 4}, "tactics": [{"name": "K", "kind": "manual", "axis": "B", "inputs": {"x": "whole_op"}}]}' > %t.bad.json
// RUN: not toast-opt %s --partir-schedule=file=%t.bad.json 2>&1 | FileCheck %s --check-prefix=JSONOP
// RUN: echo '{"mesh": {"B": 4}, "tactics": [{"name": "K", "kind": "manual", "axis": "B", "inputs": {"#1": "operand:1"}}]}' > %t.bad2.json
// RUN: not toast-opt %s --partir-schedule=file=%t.bad2.json 2>&1 | FileCheck %s --check-prefix=JSONSPEC

// ROWS: stablehlo.dot_general {{.*}}partir.loops = ["B:0"]
// SUM: stablehlo.exponential %arg0 {partir.loops = ["B:0"]}
// SUM: stablehlo.dot_general {{.*}}partir.loops = ["B:2"], partir.op_tiles = ["B:2"]
// SUMLOCAL: partir_hlo.all_to_all 0 -> 1 ["B"] {{.*}} : tensor<4x8xf32> -> tensor<16x2xf32>
// SUMLOCAL: stablehlo.dot_general {{.*}} : (tensor<16x2xf32>, tensor<2x16xf32>) -> tensor<16x16xf32>
// SUMLOCAL: partir_hlo.all_reduce "sum" ["B"]
// AGREE: results agree

// WHOLE: stablehlo.exponential %arg0 {partir.op_atomic = ["B"]}
// WHOLE: stablehlo.dot_general {{.*}}partir.loops = ["B:0"]
// VALUE: stablehlo.exponential %arg0 {partir.result_atomic = {{\[\["B"\]\]}}}
// VALUE: stablehlo.dot_general
// VALUE-NOT: partir.loops
// VALUE-SAME: -> tensor<16x16xf32>
// WHOLELOCAL: partir_hlo.all_gather
// WHOLELOCAL: stablehlo.exponential {{.*}} : tensor<16x8xf32>
// WHOLELOCAL: stablehlo.dot_general {{.*}} -> tensor<4x16xf32>

// DIM: error: tactic 'BP': selector '#1' (stablehlo.dot_general): dimension 5 is out of range for operand 0 of type 'tensor<16x8xf32>'
// OPERAND: error: tactic 'BP': selector '#1' (stablehlo.dot_general): operand 3 is out of range (the op has 2 operands)
// NOTOP: error: tactic 'BP': "{{whole_op|operand0:1}}" acts on an op: select it by position, "#N" (not '{{x|#1.0}}')
// SYNTAX: error: invalid input '#1=operand0': expected selector=DIM[@P], selector=first_divisible, selector=replicated, #N=operandO:D[@P], #N=resultR:D[@P] or #N=whole_op
// RANGE: error: tactic 'BP': selector '#9' is out of range (@main has 8 ops)
// NORULE: error: atomic: op 'func.return' has no sharding rule
// DIVIDE: :{{[0-9]+}}:8: error: tile: op 'stablehlo.dot_general' cannot loop over factor 2 of size 8 in 3 tiles (axis "B" has size 3)
// LOOPS: :{{[0-9]+}}:8: error: tile: op 'stablehlo.dot_general' already loops over axis "B"
// ATOMIC: error: tile: op 'stablehlo.dot_general' is atomic on axis "B"
// ATOMICLOOPS: error: atomic: op 'stablehlo.dot_general' already loops over axis "B"
// NOTSUM: error: tile: op 'stablehlo.reduce' cannot loop over factor {{[0-9]}}: its partial results cannot be added
// JSONOP: error: in schedule '{{.*}}': schedule.tactics[0].inputs.x: "whole_op" acts on an op: select it by position, "#N"
// JSONSPEC: error: in schedule '{{.*}}': schedule.tactics[0].inputs.#1: expected a dimension, "first_divisible", "replicated", "operandO:D", "resultR:D" (each with an optional position "@P") or "whole_op"

func.func @main(%x: tensor<16x8xf32> {partir.name = "x"},
                %w: tensor<8x16xf32> {partir.name = "w"},
                %y: tensor<16x16xf32> {partir.name = "y"}) -> (tensor<16x16xf32>, tensor<16xf32>) {
  %a = stablehlo.exponential %x : tensor<16x8xf32>
  %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %t = stablehlo.add %d, %y : tensor<16x16xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%t init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %t, %m : tensor<16x16xf32>, tensor<16xf32>
}
