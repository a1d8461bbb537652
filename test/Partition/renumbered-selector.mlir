// `#N` selectors number the ops left after partitioning erased the dead
// ones. A selector whose op N changed with the erasure gets a warning that
// names the op it selects and the op it named before (erased, or its new
// number), so a schedule numbered against the program as written does not
// act on another op in silence. Selectors the erasure did not move, and
// programs without dead ops, get none.
//
// RUN: rm -rf %t && split-file %s %t
//
// The exponential was #1 and is #0 once the dead negate is gone.
// RUN: toast-opt %t/dead.mlir --partir-tile="value=#1 dim=0 axis=B" 2>&1 | FileCheck %s --check-prefix=MOVED
// MOVED: remark: erased 1 op of @main whose results nothing reads
// MOVED: warning: tactic 'tile': selector '#1' numbers the ops left after 1 dead op was erased and selects a 'stablehlo.tanh'; before the erasure op 1 was a 'stablehlo.exponential', now #0
// MOVED: stablehlo.tanh {{.*}}"B:0"
//
// #0 named the op that was erased.
// RUN: toast-opt %t/dead.mlir --partir-atomic="value=#0.0 axis=B" 2>&1 | FileCheck %s --check-prefix=ERASED
// ERASED: warning: tactic 'atomic': selector '#0.0' numbers the ops left after 1 dead op was erased and selects a 'stablehlo.exponential'; before the erasure op 0 was a 'stablehlo.negate', which nothing reads (erased)
//
// Manual tactics, from the pass and from a schedule file, warn per selector;
// `arg0` is no `#N` selector.
// RUN: toast-opt %t/dead.mlir --partir-manual-partition="name=bp axis=B inputs=arg0=0;#1=result0:0" 2>&1 | FileCheck %s --check-prefix=MANUAL --implicit-check-not=warning
// RUN: toast-opt %t/dead.mlir --partir-schedule=file=%t/schedule.json 2>&1 | FileCheck %s --check-prefix=MANUAL --implicit-check-not=warning
// MANUAL: warning: tactic 'bp': selector '#1' numbers the ops left after 1 dead op was erased and selects a 'stablehlo.tanh'; before the erasure op 1 was a 'stablehlo.exponential', now #0
//
// No dead op, no warning. A selector out of range after the erasure gets
// the warning, then the error.
// RUN: toast-opt %t/live.mlir --partir-tile="value=#1 dim=0 axis=B" 2>&1 | FileCheck %s --check-prefix=LIVE --implicit-check-not=warning --implicit-check-not=remark
// LIVE: stablehlo.tanh {{.*}}"B:0"
// RUN: not toast-opt %t/dead.mlir --partir-tile="value=#3 dim=0 axis=B" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: warning: tactic 'tile': selector '#3' numbers the ops left after 1 dead op was erased; before the erasure op 3 was a 'func.return', now #2
// RANGE: error: tactic 'tile': selector '#3' is out of range (@main has 3 ops)

//--- dead.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %n = stablehlo.negate %x : tensor<8x4xf32>
    %e = stablehlo.exponential %x : tensor<8x4xf32>
    %t = stablehlo.tanh %e : tensor<8x4xf32>
    return %t : tensor<8x4xf32>
  }
}
//--- live.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %e = stablehlo.exponential %x : tensor<8x4xf32>
    %t = stablehlo.tanh %e : tensor<8x4xf32>
    return %t : tensor<8x4xf32>
  }
}
//--- schedule.json
{
  "tactics": [
    {"name": "bp", "kind": "manual", "axis": "B",
     "inputs": {"arg0": 0, "#1": "result0:0"}}
  ]
}
