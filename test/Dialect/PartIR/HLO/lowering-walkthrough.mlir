// The lowering walk-through at the end of PartIR §6.1: two loop nests, the
// second adding the first's result to %x. Slices become all_slices, the
// #sum loop an all_reduce, tiling loops all_gathers; all_slice(all_gather)
// cancels and the boundary becomes device-local.
//
// RUN: toast-opt %s --partir-lower-to-hlo="optimize=false boundary=false" | FileCheck %s --check-prefix=MECH
// RUN: toast-opt %s --partir-lower-to-hlo | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<256x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32>) -> tensor<256x8xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %x2s = partir.loop "M" [#partir.sum] (%rM: !partir.range<2>) {
        %xs = partir.slice 0 %x[%rB] : tensor<256x8xf32> -> tensor<64x8xf32>
        %w1s = partir.slice 1 %w1[%rM] : tensor<8x16xf32> -> tensor<8x8xf32>
        %x1ss = stablehlo.dot_general %xs, %w1s, contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
        %w2s = partir.slice 0 %w2[%rM] : tensor<16x8xf32> -> tensor<8x8xf32>
        %x2ss = stablehlo.dot_general %x1ss, %w2s, contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
        partir.yield %x2ss : tensor<64x8xf32>
      } : tensor<64x8xf32>
      partir.yield %x2s : tensor<64x8xf32>
    } : tensor<256x8xf32>
    %s = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %rs = partir.slice 0 %r[%rB] : tensor<256x8xf32> -> tensor<64x8xf32>
      %xs = partir.slice 0 %x[%rB] : tensor<256x8xf32> -> tensor<64x8xf32>
      %w = stablehlo.add %rs, %xs : tensor<64x8xf32>
      partir.yield %w : tensor<64x8xf32>
    } : tensor<256x8xf32>
    return %s : tensor<256x8xf32>
  }
}

// Mechanical lowering, before optimization.
// MECH: %[[XS:.*]] = partir_hlo.all_slice [{"B"}, {}] %arg0 : tensor<256x8xf32> -> tensor<64x8xf32>
// MECH-NEXT: %[[W1S:.*]] = partir_hlo.all_slice [{}, {"M"}] %arg1 : tensor<8x16xf32> -> tensor<8x8xf32>
// MECH-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[XS]], %[[W1S]]
// MECH-NEXT: %[[W2S:.*]] = partir_hlo.all_slice [{"M"}, {}] %arg2 : tensor<16x8xf32> -> tensor<8x8xf32>
// MECH-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %[[W2S]]
// MECH-NEXT: %[[RED:.*]] = partir_hlo.all_reduce "sum" ["M"] %[[X2]] : tensor<64x8xf32>
// MECH-NEXT: %[[R:.*]] = partir_hlo.all_gather [{"B"}, {}] %[[RED]] : tensor<64x8xf32> -> tensor<256x8xf32>
// MECH-NEXT: %[[RS:.*]] = partir_hlo.all_slice [{"B"}, {}] %[[R]] : tensor<256x8xf32> -> tensor<64x8xf32>
// MECH-NEXT: %[[XS2:.*]] = partir_hlo.all_slice [{"B"}, {}] %arg0 : tensor<256x8xf32> -> tensor<64x8xf32>
// MECH-NEXT: %[[W:.*]] = stablehlo.add %[[RS]], %[[XS2]] : tensor<64x8xf32>
// MECH-NEXT: %[[S:.*]] = partir_hlo.all_gather [{"B"}, {}] %[[W]] : tensor<64x8xf32> -> tensor<256x8xf32>
// MECH-NEXT: return %[[S]] : tensor<256x8xf32>

// After fusion and the device-local boundary (the paper's final program).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[XS:.*]]: tensor<64x8xf32> {partir.sharding = {{\[\["B"\], \[\]\]}}}, %[[W1S:.*]]: tensor<8x8xf32> {partir.sharding = {{\[\[\], \["M"\]\]}}}, %[[W2S:.*]]: tensor<8x8xf32> {partir.sharding = {{\[\["M"\], \[\]\]}}})
// CHECK-SAME: -> (tensor<64x8xf32> {partir.sharding = {{\[\["B"\], \[\]\]}}})
// CHECK-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[XS]], %[[W1S]]
// CHECK-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %[[W2S]]
// CHECK-NEXT: %[[RED:.*]] = partir_hlo.all_reduce "sum" ["M"] %[[X2]] : tensor<64x8xf32>
// CHECK-NEXT: %[[W:.*]] = stablehlo.add %[[RED]], %[[XS]] : tensor<64x8xf32>
// CHECK-NEXT: return %[[W]] : tensor<64x8xf32>
