// PartIR Listing 9: the PartIR:HLO collectives by example (mesh
// {x1: 2, x2: 4, x3: 8}); they round-trip in pretty and generic form.
// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["x1"=2, "x2"=4, "x3"=8]>} {
  // CHECK-LABEL: func.func @listing9
  func.func @listing9(%a: tensor<16x500x40xf32>, %b: tensor<8x10x16xf32>, %c: tensor<16x32xf32>) -> (tensor<16x500x40xf32>, tensor<8x500x10xf32>, tensor<1x500x10xf32>, tensor<16x80x16xf32>, tensor<8x500x10xf32>, tensor<128x4xf32>) {
    // CHECK: partir_hlo.all_reduce "sum" ["x1", "x2"] %{{.*}} : tensor<16x500x40xf32>
    %0 = partir_hlo.all_reduce "sum" ["x1", "x2"] %a : tensor<16x500x40xf32>
    // CHECK: partir_hlo.all_slice [{"x1"}, {}, {"x2"}] %{{.*}} : tensor<16x500x40xf32> -> tensor<8x500x10xf32>
    %1 = partir_hlo.all_slice [{"x1"}, {}, {"x2"}] %a : tensor<16x500x40xf32> -> tensor<8x500x10xf32>
    // CHECK: partir_hlo.all_slice [{"x1", "x3"}, {}, {"x2"}] %{{.*}} : tensor<16x500x40xf32> -> tensor<1x500x10xf32>
    %2 = partir_hlo.all_slice [{"x1", "x3"}, {}, {"x2"}] %a : tensor<16x500x40xf32> -> tensor<1x500x10xf32>
    // CHECK: partir_hlo.all_gather [{"x1"}, {"x3"}, {}] %{{.*}} : tensor<8x10x16xf32> -> tensor<16x80x16xf32>
    %3 = partir_hlo.all_gather [{"x1"}, {"x3"}, {}] %b : tensor<8x10x16xf32> -> tensor<16x80x16xf32>
    // CHECK: partir_hlo.reduce_scatter "sum" [{"x1"}, {}, {"x2"}] %{{.*}} : tensor<16x500x40xf32> -> tensor<8x500x10xf32>
    %4 = partir_hlo.reduce_scatter "sum" [{"x1"}, {}, {"x2"}] %a : tensor<16x500x40xf32> -> tensor<8x500x10xf32>
    // CHECK: partir_hlo.all_to_all 0 -> 1 ["x1", "x2"] %{{.*}} : tensor<16x32xf32> -> tensor<128x4xf32>
    %5 = partir_hlo.all_to_all 0 -> 1 ["x1", "x2"] %c : tensor<16x32xf32> -> tensor<128x4xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<16x500x40xf32>, tensor<8x500x10xf32>, tensor<1x500x10xf32>, tensor<16x80x16xf32>, tensor<8x500x10xf32>, tensor<128x4xf32>
  }
}

// Dimensions without axes may be dynamic: nothing is cut or joined there.
module attributes {partir.mesh = #partir.mesh<["x1"=2, "x2"=4]>} {
  // CHECK-LABEL: func.func @dynamic_without_axes
  func.func @dynamic_without_axes(%a: tensor<8x?xf32>, %b: tensor<4x8x?xf32>, %c: tensor<?xf32>) -> (tensor<4x?xf32>, tensor<16x?xf32>, tensor<4x?xf32>, tensor<?xf32>, tensor<8x4x?xf32>) {
    // CHECK: partir_hlo.all_slice [{"x1"}, {}] %{{.*}} : tensor<8x?xf32> -> tensor<4x?xf32>
    %0 = partir_hlo.all_slice [{"x1"}, {}] %a : tensor<8x?xf32> -> tensor<4x?xf32>
    // CHECK: partir_hlo.all_gather [{"x1"}, {}] %{{.*}} : tensor<8x?xf32> -> tensor<16x?xf32>
    %1 = partir_hlo.all_gather [{"x1"}, {}] %a : tensor<8x?xf32> -> tensor<16x?xf32>
    // CHECK: partir_hlo.reduce_scatter "max" [{"x1"}, {}] %{{.*}} : tensor<8x?xf32> -> tensor<4x?xf32>
    %2 = partir_hlo.reduce_scatter "max" [{"x1"}, {}] %a : tensor<8x?xf32> -> tensor<4x?xf32>
    // CHECK: partir_hlo.all_reduce "sum" ["x2"] %{{.*}} : tensor<?xf32>
    %3 = partir_hlo.all_reduce "sum" ["x2"] %c : tensor<?xf32>
    // CHECK: partir_hlo.all_to_all 0 -> 1 ["x1"] %{{.*}} : tensor<4x8x?xf32> -> tensor<8x4x?xf32>
    %4 = partir_hlo.all_to_all 0 -> 1 ["x1"] %b : tensor<4x8x?xf32> -> tensor<8x4x?xf32>
    return %0, %1, %2, %3, %4 : tensor<4x?xf32>, tensor<16x?xf32>, tensor<4x?xf32>, tensor<?xf32>, tensor<8x4x?xf32>
  }
}
