// An argument whose tiling loop fused into a loop of an op that is itself
// fused (dot into add, on B) gathers in that loop's body, ahead of the
// op's own inner loops. The second dot's B loop joins add's; its S (sum)
// and M loops stay its own, inside that body. w2's B loop fuses into the
// dot's B loop and its M gather runs there, before the dot's slices of
// tanh's gathered result and of w2. The planner mapped the dot's own inner
// levels to the root level they sit in and took the gather for one of the
// dot's body (aheadLevel): it gathered w2 after tanh's slice, the same
// step time, peak 844 B where lowering holds 1040 B (19% low).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: step time      : 24.004 us
// SIM: peak memory    : 1.02 KiB (1040 B)
// RUN: FileCheck %s --input-file=%t.mlir
// CHECK: %[[T:.*]] = stablehlo.tanh
// CHECK-NEXT: %[[TG:.*]] = partir_hlo.all_gather [{"M"}, {"B"}] %[[T]]
// CHECK-NEXT: %[[WG:.*]] = partir_hlo.all_gather [{"M"}, {}] %arg2
// CHECK-NEXT: partir_hlo.all_slice [{"M"}, {"S"}] %[[TG]]
// CHECK-NEXT: partir_hlo.all_slice [{"S"}, {}] %[[WG]]
// CHECK-NEXT: stablehlo.dot_general
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=2, "S"=2, "M"=2]>} {
  func.func @main(%arg0: tensor<6x10xf32> {partir.tiling = ["B:1", "M:0"]}, %arg1: tensor<10x14xf32> {partir.tiling = ["B:0", "M:1"]}, %arg2: tensor<14x10xf32> {partir.tiling = ["B:1", "M:0"]}) -> tensor<6x10xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {partir.loops = ["B:2", "S:1", "M:0"]} : (tensor<6x10xf32>, tensor<10x14xf32>) -> tensor<6x14xf32>
    %1 = stablehlo.tanh %0 {partir.loops = ["B:1", "M:0"]} : tensor<6x14xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] {partir.loops = ["B:1", "S:2", "M:0"]} : (tensor<6x14xf32>, tensor<14x10xf32>) -> tensor<6x10xf32>
    %3 = stablehlo.add %2, %arg0 {partir.loops = ["B:1", "M:0"]} : tensor<6x10xf32>
    return %3 : tensor<6x10xf32>
  }
}
