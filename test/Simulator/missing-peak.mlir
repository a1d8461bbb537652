// A device file without a peak for an element type the program uses (the
// unit device has f32 and bf16, not f16): the contraction is priced at the
// f32 peak, with a warning on the first f16 contraction only.
// 65536 FLOPs per dot at 1e12: 6.5536e-08 s each, 1.31072e-07 s for two.
//
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json json=%t.json summary=false" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "step_time_s": 1.31072e-07,

func.func @main(%a: tensor<256x8xf16>, %b: tensor<8x16xf16>) -> tensor<256x16xf16> {
  // expected-warning@+1 {{device 'unit' has no peak FLOP/s for f16; pricing this and every f16 contraction at its f32 peak}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xf16>, tensor<8x16xf16>) -> tensor<256x16xf16>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xf16>, tensor<8x16xf16>) -> tensor<256x16xf16>
  %2 = stablehlo.add %0, %1 : tensor<256x16xf16>
  return %2 : tensor<256x16xf16>
}
