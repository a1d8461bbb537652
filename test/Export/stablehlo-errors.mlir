// --partir-export-stablehlo wants device-local PartIR:HLO: PartIR:Core left
// in the program is reported where it is.
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
