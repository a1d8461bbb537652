// "operandO:D@P" / "resultR:D@P" (docs/schedules.md) ask op N to loop over
// the tactic's axis at position P of its loop nest (0: outermost), which
// fixes the order of two axes over one factor: which one is major. Here x
// is tiled by rows on "a" and y on "b"; the tactics run "a" first, so the
// add loops over its rows on "a" then "b" ("a" major). Asked for its "b"
// loop at position 0, it loops "b" then "a": device d = (a, b) computes
// row block 2b + a rather than 2a + b, its operands are resliced to suit,
// and its reader, left to propagation, gathers and reslices them back.
// The position is saved with the request (partir.op_tiles = ["b:0@0"]) and
// read back by the next tactic pass; the program computes what the
// original does.
//
// RUN: toast-opt %s --partir-manual-partition="name=A axis=a inputs=x=0 mesh=a=2,b=2" --partir-manual-partition="name=B axis=b inputs=y=0" | FileCheck %s --check-prefix=MESH
// RUN: toast-opt %s --partir-manual-partition="name=A axis=a inputs=x=0 mesh=a=2,b=2" --partir-manual-partition="name=B axis=b inputs=y=0;#0=operand0:0@0" -o %t.order.mlir
// RUN: FileCheck %s --check-prefix=ORDER < %t.order.mlir
// RUN: toast-opt %t.order.mlir --partir-propagate | FileCheck %s --check-prefix=ORDER
// RUN: toast-opt %t.order.mlir --partir-materialize-core --partir-lower-to-hlo -o %t.local.mlir
// RUN: FileCheck %s --check-prefix=LOCAL < %t.local.mlir
// RUN: toast-run --compare %s %t.local.mlir | FileCheck %s --check-prefix=AGREE
// RUN: echo '{"mesh": {"a": 2, "b": 2}, "tactics": [{"name": "A", "kind": "manual", "axis": "a", "inputs": {"x": 0}}, {"name": "B", "kind": "manual", "axis": "b", "inputs": {"y": 0, "#0": "operand0:0@0"}}]}' > %t.json
// RUN: toast-opt %s --partir-schedule=file=%t.json --partir-lower-to-hlo -o %t.local-json.mlir
// RUN: diff %t.local.mlir %t.local-json.mlir
//
// Bad input is a located error:
// RUN: not toast-opt %s --partir-manual-partition="name=B axis=b inputs=#0=operand0:0@2 mesh=a=2,b=2" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not toast-opt %s --partir-manual-partition="name=B axis=b inputs=#0=operand0:0@x mesh=a=2,b=2" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: echo '{"mesh": {"a": 2, "b": 2}, "tactics": [{"name": "B", "kind": "manual", "axis": "b", "inputs": {"#0": "operand0:0@"}}]}' > %t.bad.json
// RUN: not toast-opt %s --partir-schedule=file=%t.bad.json 2>&1 | FileCheck %s --check-prefix=JSONSPEC

// MESH: stablehlo.add %arg0, %arg1 {partir.loops = ["a:0", "b:0"]}
// ORDER: stablehlo.add %arg0, %arg1 {partir.loops = ["b:0", "a:0"], partir.op_tiles = ["b:0@0"]}
// ORDER: stablehlo.tanh %0 {partir.loops = ["a:0", "b:0"]}
// LOCAL: partir_hlo.all_slice [{"b", "a"}, {}]
// LOCAL: stablehlo.add {{.*}} : tensor<2x4xf32>
// LOCAL: partir_hlo.all_gather [{"b", "a"}, {}]
// AGREE: results agree
// RANGE: error: tile: op 'stablehlo.add' cannot loop over axis "b" at nest position 2: a nest has at most 2 loops (one per mesh axis), positions count from 0
// SYNTAX: error: invalid input '#0=operand0:0@x': expected selector=DIM[@P], selector=first_divisible, selector=replicated, #N=operandO:D[@P], #N=resultR:D[@P] or #N=whole_op
// JSONSPEC: error: in schedule '{{.*}}': schedule.tactics[0].inputs.#0: expected a dimension, "first_divisible", "replicated", "operandO:D", "resultR:D" (each with an optional position "@P") or "whole_op"

func.func @main(%x: tensor<8x4xf32> {partir.name = "x"},
                %y: tensor<8x4xf32> {partir.name = "y"}) -> tensor<8x4xf32> {
  %s = stablehlo.add %x, %y : tensor<8x4xf32>
  %t = stablehlo.tanh %s : tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
