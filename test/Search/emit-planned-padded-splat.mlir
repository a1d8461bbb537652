// A splat constant (torch-mlir's relu writes `maximum(x, dense<0.0>)`) read
// through a chain of all_slices, one per level because the inner level pads
// (45 over M=2): it fuses into the first all_slice as into a single one, in
// the simulator and now in the analytic cost. Before, the pricer stored it
// (182.4 ns priced, 152.8 ns simulated; on the DETR export a state's peak
// was 4.5% high), while its own emitter's program fused it. The first
// all_slice, an even chunk of the splat, is itself a smaller splat
// (phlo::getSlicedSplat) that fuses into the second: 152.8 ns before that
// rule, in both engines.
// RUN: toast-opt %s --partir-tile="value=arg0 dim=0 axis=B mesh=B=2,M=2" --partir-tile="value=arg1 dim=1 axis=M" --partir-propagate --toast-emit-planned="device=a100 report=true" --partir-simulate="device=a100 summary=true" -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE

// CHECK: remark: planned: analytic step time 1.080257e-04 ms
// CHECK: step time      : 108.026 ns
// IR: %[[CST:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x64x45xf32>
// IR: %[[B:.*]] = partir_hlo.all_slice [{"B"}, {}, {}] %[[CST]]
// IR: partir_hlo.all_slice [{}, {}, {"M"}] %[[B]] : tensor<4x64x45xf32> -> tensor<4x64x23xf32>
// AGREE: results agree

func.func @main(%x: tensor<8x64x45xf32>, %w: tensor<45x45xf32>) -> tensor<8x64x45xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<8x64x45xf32>
  %h = stablehlo.dot_general %x, %w, contracting_dims = [2] x [0] : (tensor<8x64x45xf32>, tensor<45x45xf32>) -> tensor<8x64x45xf32>
  %r = stablehlo.maximum %h, %zero : tensor<8x64x45xf32>
  return %r : tensor<8x64x45xf32>
}
