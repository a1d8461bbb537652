// Identity custom calls (CustomCallOp::isIdentity): torch-xla marks every
// argument with `tt.mark_argument`, naming it in `ttir.name`; a module may
// declare its own vendor markers in `toast.identity_custom_calls`. Both are
// pointwise for partitioning, the identity in toast-run, and free in the
// simulator (a marker is a reshape to its own shape).
//
// Schedules select arguments by their marker's name; shardings pass through
// the markers (no all_gather), and the partitioned program computes what
// the original did.
// RUN: split-file %s %t
// RUN: toast-opt %t/marked.mlir --partir-manual-partition="name=BP axis=B inputs=tokens=0 mesh=B=2,M=2" --partir-manual-partition="name=MP axis=M inputs=layers.0.w=1" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o %t/marked.hlo.mlir
// RUN: FileCheck %s < %t/marked.hlo.mlir
// RUN: toast-run --compare %t/marked.mlir %t/marked.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/declared.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=2" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o %t/declared.hlo.mlir
// RUN: FileCheck %s --check-prefix=DECLARED < %t/declared.hlo.mlir
// RUN: toast-run --compare %t/declared.mlir %t/declared.hlo.mlir | FileCheck %s --check-prefix=AGREE
//
// The markers cost nothing: the marked program simulates to the step time
// and peak of the same program without them.
// RUN: toast-opt %t/marked.mlir --partir-simulate="device=a100 json=%t/marked.json summary=false" -o /dev/null
// RUN: toast-opt %t/unmarked.mlir --partir-simulate="device=a100 json=%t/unmarked.json summary=false" -o /dev/null
// RUN: grep -E '"(step_time_s|peak_memory_bytes)"' %t/marked.json > %t/marked.txt
// RUN: grep -E '"(step_time_s|peak_memory_bytes)"' %t/unmarked.json > %t/unmarked.txt
// RUN: diff %t/marked.txt %t/unmarked.txt
//
// The search's planner prices the markers as the simulator does.
// RUN: toast-opt %t/marked.mlir --partir-manual-partition="name=BP axis=B inputs=tokens=0 mesh=B=2,M=2" --partir-manual-partition="name=MP axis=M inputs=layers.0.w=1" --toast-emit-planned="report=true" --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLANNED
// PLANNED: remark: planned: analytic step time 1.317{{[0-9]*}}e-06 ms
// PLANNED: step time      : 1.317 ns
//
// Malformed declarations are verifier errors.
// RUN: not toast-opt %t/bad-attr.mlir 2>&1 | FileCheck %s --check-prefix=BADATTR
// RUN: not toast-opt %t/bad-form.mlir 2>&1 | FileCheck %s --check-prefix=BADFORM
// RUN: not toast-opt %t/nested.mlir 2>&1 | FileCheck %s --check-prefix=BADFORM
//
// A marker names only an argument without a name attribute: `x` selects the
// argument named so, not the one a marker calls `x` (nor one an unknown
// custom call tags so).
// RUN: toast-opt %t/names.mlir --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=2" | FileCheck %s --check-prefix=NAMES
// NAMES: func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {partir.name = "x", partir.tiling = ["B:0"]}, %arg2: tensor<8x16xf32>)

// AGREE: results agree

// CHECK-LABEL: func.func @main(
// CHECK-SAME: tensor<4x16xf32> {partir.sharding = {{\[\["B"\], \[\]\]}}
// CHECK-SAME: tensor<16x16xf32> {partir.sharding = {{\[\[\], \["M"\]\]}}
// CHECK-NOT: all_gather
// CHECK: stablehlo.custom_call @tt.mark_argument(%arg0) {{.*}} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: stablehlo.custom_call @tt.mark_argument({{.*}} : (tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
// CHECK-NOT: all_gather
// CHECK: return

// DECLARED: func.func @main(%arg0: tensor<4x16xf32>
// DECLARED-NOT: all_gather
// DECLARED: stablehlo.custom_call @acme.tag(%arg0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// DECLARED-NOT: all_gather
// DECLARED: return

// BADATTR: error: 'stablehlo.custom_call' op the module's 'toast.identity_custom_calls' must be an array of strings (custom call targets)
// BADFORM: error: 'stablehlo.custom_call' op @acme.tag is declared an identity ('toast.identity_custom_calls') but does not take one tensor and return one of its type

//--- marked.mlir
module {
  func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
    %0 = stablehlo.custom_call @tt.mark_argument(%arg0) {api_version = 0 : i32, backend_config = "", mhlo.frontend_attributes = {ttcore.argument_type = "input", ttir.name = "tokens"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %r = stablehlo.reshape %arg1 : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %m = stablehlo.custom_call @tt.mark_argument(%r) {api_version = 0 : i32, backend_config = "", mhlo.frontend_attributes = {ttcore.argument_type = "parameter", ttir.name = "layers.0.w"}} : (tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    %1 = stablehlo.reshape %m : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.tanh %2 : tensor<8x32xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{replicated}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %4 : tensor<8x32xf32>
  }
}
//--- unmarked.mlir
module {
  func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
    %r = stablehlo.reshape %arg1 : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %1 = stablehlo.reshape %r : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    %2 = stablehlo.dot_general %arg0, %1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.tanh %2 : tensor<8x32xf32>
    return %3 : tensor<8x32xf32>
  }
}
//--- declared.mlir
module attributes {toast.identity_custom_calls = ["acme.tag"]} {
  func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.custom_call @acme.tag(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.tanh %0 : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}
//--- bad-attr.mlir
module attributes {toast.identity_custom_calls = "acme.tag"} {
  func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.custom_call @acme.tag(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
//--- bad-form.mlir
module attributes {toast.identity_custom_calls = ["acme.tag"]} {
  func.func @main(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
    %0 = stablehlo.custom_call @acme.tag(%arg0) : (tensor<8x16xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
//--- nested.mlir
module attributes {toast.identity_custom_calls = ["acme.tag"]} {
  module @inner {
    func.func @main(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
      %0 = stablehlo.custom_call @acme.tag(%arg0) : (tensor<8x16xf32>) -> tensor<16x8xf32>
      return %0 : tensor<16x8xf32>
    }
  }
}
//--- names.mlir
module {
  func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {partir.name = "x"}, %arg2: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.custom_call @tt.mark_argument(%arg0) {mhlo.frontend_attributes = {ttir.name = "x"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.custom_call @foo(%arg2) {mhlo.frontend_attributes = {ttir.name = "x"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.add %arg1, %arg1 : tensor<8x16xf32>
    return %0, %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
