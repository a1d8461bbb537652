// Padded (uneven) tiling: a dimension of size n cut into k chunks gives
// ceil(n / k) rows per chunk, the last chunks holding padding. The padding
// is recorded by the types (global against local size); a padded slice
// names its range type, since the sizes no longer determine it. Divisible
// slices print as before.
//
// RUN: toast-opt %s | FileCheck %s
// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  // CHECK-LABEL: func @core
  func.func @core(%x: tensor<10x8xf32>, %y: tensor<9xf32>) -> (tensor<10x8xf32>, tensor<9xf32>) {
    // CHECK: partir.loop "B" [#partir.tile<0>]
    // CHECK: partir.slice 0 %{{.*}}[%{{.*}} : !partir.range<4>] : tensor<10x8xf32> -> tensor<3x8xf32>
    // CHECK: partir.slice 1 %{{.*}}[%{{.*}}] : tensor<3x8xf32> -> tensor<3x4xf32>
    // CHECK: } : tensor<10x8xf32>
    %r = partir.loop "B" [#partir.tile<0>] (%rb: !partir.range<4>) {
      %s = partir.slice 0 %x[%rb : !partir.range<4>] : tensor<10x8xf32> -> tensor<3x8xf32>
      %t = partir.loop "M" [#partir.tile<1>] (%rm: !partir.range<2>) {
        %u = partir.slice 1 %s[%rm] : tensor<3x8xf32> -> tensor<3x4xf32>
        partir.yield %u : tensor<3x4xf32>
      } : tensor<3x8xf32>
      partir.yield %t : tensor<3x8xf32>
    } : tensor<10x8xf32>
    // 9 rows on 4 devices: 3, 3, 3 and one chunk of padding only. The sizes
    // alone would say 3 chunks.
    // CHECK: partir.slice 0 %{{.*}}[%{{.*}} : !partir.range<4>] : tensor<9xf32> -> tensor<3xf32>
    %v = partir.loop "B" [#partir.tile<0>] (%rb: !partir.range<4>) {
      %s = partir.slice 0 %y[%rb : !partir.range<4>] : tensor<9xf32> -> tensor<3xf32>
      partir.yield %s : tensor<3xf32>
    } : tensor<9xf32>
    return %r, %v : tensor<10x8xf32>, tensor<9xf32>
  }

  // CHECK-LABEL: func @hlo
  func.func @hlo(%x: tensor<10x8xf32>) -> tensor<10x8xf32> {
    // CHECK: partir_hlo.all_slice [{"B"}, {}] %{{.*}} : tensor<10x8xf32> -> tensor<3x8xf32>
    %0 = partir_hlo.all_slice [{"B"}, {}] %x : tensor<10x8xf32> -> tensor<3x8xf32>
    // CHECK: partir_hlo.all_gather [{"B"}, {}] %{{.*}} : tensor<3x8xf32> -> tensor<10x8xf32>
    %1 = partir_hlo.all_gather [{"B"}, {}] %0 : tensor<3x8xf32> -> tensor<10x8xf32>
    return %1 : tensor<10x8xf32>
  }
}
