// --partir-export-stablehlo wants device-local PartIR:HLO: PartIR:Core left
// in the program is reported where it is. An all_slice, or a padded
// all_gather, of a tensor with a dynamic dimension has no StableHLO form
// here (dynamic_slice and slice take static sizes): a located error, not
// invalid IR with ShapedType::kDynamic as a size.
// RUN: toast-opt %s -split-input-file --partir-export-stablehlo -verify-diagnostics

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @core(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{'partir.loop' op is PartIR:Core; run --partir-lower-to-hlo before --partir-export-stablehlo}}
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
      partir.yield %s : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=3]>} {
  func.func @dynamic_slice(%x: tensor<?x6xf32>) -> tensor<?x2xf32> {
    // expected-error @+1 {{'partir_hlo.all_slice' op cannot be exported to StableHLO: dimension 0 of 'tensor<?x2xf32>' is dynamic, and stablehlo.dynamic_slice needs static slice sizes}}
    %0 = partir_hlo.all_slice [{}, {"B"}] %x : tensor<?x6xf32> -> tensor<?x2xf32>
    return %0 : tensor<?x2xf32>
  }
}

// -----

// Padded: 6 columns in 4 chunks of 2.
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @dynamic_padded_slice(%x: tensor<?x6xf32>) -> tensor<?x2xf32> {
    // expected-error @+1 {{'partir_hlo.all_slice' op cannot be exported to StableHLO: dimension 0 of 'tensor<?x2xf32>' is dynamic, and stablehlo.dynamic_slice needs static slice sizes}}
    %0 = partir_hlo.all_slice [{}, {"B"}] %x : tensor<?x6xf32> -> tensor<?x2xf32>
    return %0 : tensor<?x2xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @dynamic_padded_gather(%x: tensor<?x2xf32>) -> tensor<?x6xf32> {
    // expected-error @+1 {{'partir_hlo.all_gather' op cannot be exported to StableHLO: dimension 0 of 'tensor<?x6xf32>' is dynamic, and the stablehlo.slice that drops the padding needs static limits}}
    %0 = partir_hlo.all_gather [{}, {"B"}] %x : tensor<?x2xf32> -> tensor<?x6xf32>
    return %0 : tensor<?x6xf32>
  }
}
