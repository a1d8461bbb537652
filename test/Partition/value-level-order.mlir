// "D@P" (docs/schedules.md) tiles dimension D over the tactic's axis at
// position P of the value's tiling levels (0: outermost), which fixes the
// order of two axes over one dimension of a value (which one is major),
// as "operandO:D@P" does for an op's loops. Here x is tiled by rows on
// "a", so the add loops over its rows on "a" and slices y; tiling y on "b"
// then nests inside that slicing (deep tiling: y is ["a:0", "b:0"]).
// Asked for position 0, y is ["b:0", "a:0"]: device d = (a, b) holds row
// block 2b + a of y, and the add reslices it. A level the value already has
// (deep tiling adopted it before the value's own tactic ran) moves to the
// position asked; the program computes what the original does.
//
// RUN: toast-opt %s --partir-manual-partition="name=A axis=a inputs=x=0 mesh=a=2,b=2" --partir-manual-partition="name=B axis=b inputs=y=0" | FileCheck %s --check-prefix=DEEP
// RUN: toast-opt %s --partir-manual-partition="name=A axis=a inputs=x=0 mesh=a=2,b=2" --partir-manual-partition="name=B axis=b inputs=y=0@0" | FileCheck %s --check-prefix=ORDER
// RUN: toast-opt %s --partir-manual-partition="name=A axis=a inputs=x=0 mesh=a=2,b=2" --partir-manual-partition="name=B axis=b inputs=y=0" --partir-manual-partition="name=A2 axis=a inputs=y=0@1" | FileCheck %s --check-prefix=ORDER
// RUN: echo '{"mesh": {"a": 2, "b": 2}, "tactics": [{"name": "A", "kind": "manual", "axis": "a", "inputs": {"x": 0}}, {"name": "B", "kind": "manual", "axis": "b", "inputs": {"y": "0@0"}}]}' > %t.json
// RUN: toast-opt %s --partir-schedule=file=%t.json --partir-lower-to-hlo -o %t.local.mlir
// RUN: FileCheck %s --check-prefix=LOCAL < %t.local.mlir
// RUN: toast-run --compare %s %t.local.mlir | FileCheck %s --check-prefix=AGREE
//
// Bad input is a located error:
// RUN: not toast-opt %s --partir-manual-partition="name=B axis=b inputs=y=0@2 mesh=a=2,b=2" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not toast-opt %s --partir-manual-partition="name=B axis=b inputs=y=0@x mesh=a=2,b=2" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: echo '{"mesh": {"a": 2, "b": 2}, "tactics": [{"name": "B", "kind": "manual", "axis": "b", "inputs": {"y": "0@"}}]}' > %t.bad.json
// RUN: not toast-opt %s --partir-schedule=file=%t.bad.json 2>&1 | FileCheck %s --check-prefix=JSONSPEC

// DEEP: partir.name = "y", partir.tiling = ["a:0", "b:0"]
// ORDER: partir.name = "y", partir.tiling = ["b:0", "a:0"]
// ORDER: stablehlo.add %arg0, %arg1 {partir.loops = ["a:0", "b:0"]}
// LOCAL: partir_hlo.all_gather [{"b", "a"}, {}] %arg1
// LOCAL: partir_hlo.all_slice [{"a", "b"}, {}]
// LOCAL: stablehlo.add {{.*}} : tensor<2x4xf32>
// AGREE: results agree
// RANGE: value-level-order.mlir:[[@LINE+5]]:17: error: tile: level position 2 is beyond the mesh's axes (a value has at most 2 tiling levels, one per mesh axis; positions count from 0)
// SYNTAX: error: invalid input 'y=0@x': expected selector=DIM[@P], selector=first_divisible, selector=replicated, #N=operandO:D[@P], #N=resultR:D[@P] or #N=whole_op
// JSONSPEC: error: in schedule '{{.*}}': schedule.tactics[0].inputs.y: expected a dimension, "first_divisible", "replicated", "operandO:D", "resultR:D" (each with an optional position "@P") or "whole_op"

func.func @main(%x: tensor<8x4xf32> {partir.name = "x"},
                %y: tensor<8x4xf32> {partir.name = "y"}) -> tensor<8x4xf32> {
  %s = stablehlo.add %x, %y : tensor<8x4xf32>
  %t = stablehlo.tanh %s : tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
