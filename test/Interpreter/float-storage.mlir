// f16, bf16 and f32 elements are stored as floats (docs/interpreter.md,
// "Values"): signaling NaNs keep their bits through negate, abs and
// total-order comparisons (a float-to-double conversion would set their
// quiet bit; convert does, as IEEE 754 asks), and a reduce whose body is
// typed otherwise than its values (f64 or bf16 over f32) reads them
// converted (spmd-widened-body.mlir: an all_reduce's).
// RUN: toast-run %s --print-results | FileCheck %s
// RUN: toast-run %s --entry widened --print-results | FileCheck %s --check-prefix=WIDE
// RUN: toast-run %s --entry negated --print-results | FileCheck %s --check-prefix=NEG
// RUN: toast-run %s --entry narrowed --print-results | FileCheck %s --check-prefix=NARROW

// 0x7F800001 (signaling), 0x7FC00000 (quiet).
// CHECK: result #0: tensor<2xi32> [-8388607, -4194304]
// CHECK: result #1: tensor<2xi32> [2139095041, 2143289344]
// f16 0x7C01 (signaling), 0x7E01 (quiet): negate flips the sign only.
// CHECK: result #2: tensor<2xi16> [-1023, -511]
// In the total order a positive signaling NaN comes before a quiet one.
// CHECK: result #3: tensor<2xi1> [true, false]
// CHECK: result #4: tensor<2xi1> [true, false]
// 0x7FF8000020000000: quiet, the payload kept.
// CHECK: result #5: tensor<1xi64> [9221120237577961472]
func.func @main() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi16>, tensor<2xi1>, tensor<2xi1>, tensor<1xi64>) {
  %bits = stablehlo.constant dense<[2139095041, 2143289344]> : tensor<2xi32>
  %f = stablehlo.bitcast_convert %bits : (tensor<2xi32>) -> tensor<2xf32>
  %n = stablehlo.negate %f : tensor<2xf32>
  %nb = stablehlo.bitcast_convert %n : (tensor<2xf32>) -> tensor<2xi32>
  %a = stablehlo.abs %n : tensor<2xf32>
  %ab = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2xi32>
  %hbits = stablehlo.constant dense<[31745, 32257]> : tensor<2xi16>
  %h = stablehlo.bitcast_convert %hbits : (tensor<2xi16>) -> tensor<2xf16>
  %hn = stablehlo.negate %h : tensor<2xf16>
  %hnb = stablehlo.bitcast_convert %hn : (tensor<2xf16>) -> tensor<2xi16>
  %g = stablehlo.reverse %f, dims = [0] : tensor<2xf32>
  %lt = stablehlo.compare LT, %f, %g, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %bfbits = stablehlo.constant dense<[32641, 32704]> : tensor<2xi16>
  %bf = stablehlo.bitcast_convert %bfbits : (tensor<2xi16>) -> tensor<2xbf16>
  %bg = stablehlo.reverse %bf, dims = [0] : tensor<2xbf16>
  %lt2 = stablehlo.compare LT, %bf, %bg, TOTALORDER : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xi1>
  %s = stablehlo.slice %f [0:1] : (tensor<2xf32>) -> tensor<1xf32>
  %wide = stablehlo.convert %s : (tensor<1xf32>) -> tensor<1xf64>
  %wb = stablehlo.bitcast_convert %wide : (tensor<1xf64>) -> tensor<1xi64>
  return %nb, %ab, %hnb, %lt, %lt2, %wb : tensor<2xi32>, tensor<2xi32>, tensor<2xi16>, tensor<2xi1>, tensor<2xi1>, tensor<1xi64>
}

// WIDE: result #0: tensor<f64> [5]
func.func @widened() -> tensor<f64> {
  %x = stablehlo.constant dense<[1.0, 5.0, 3.0, 2.0]> : tensor<4xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f64>
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f64>) -> tensor<f64>
   reducer(%a: tensor<f64>, %b: tensor<f64>) {
    %c = stablehlo.compare GT, %a, %b : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %s = stablehlo.select %c, %a, %b : tensor<i1>, tensor<f64>
    stablehlo.return %s : tensor<f64>
  }
  return %r : tensor<f64>
}

// A negate in an f64 body over f32 values: -(1 + 5 + 3 + 2).
// NEG: result #0: tensor<f64> [-11]
func.func @negated() -> tensor<f64> {
  %x = stablehlo.constant dense<[1.0, 5.0, 3.0, 2.0]> : tensor<4xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f64>
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f64>) -> tensor<f64>
   reducer(%a: tensor<f64>, %b: tensor<f64>) {
    %n = stablehlo.negate %b : tensor<f64>
    %s = stablehlo.add %a, %n : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }
  return %r : tensor<f64>
}

// A bf16 body over an f32 value rounds it: 1 + 2^-8 ties to 1.
// NARROW: result #0: tensor<bf16> [-1]
// NARROW: result #1: tensor<bf16> [1]
func.func @narrowed() -> (tensor<bf16>, tensor<bf16>) {
  %x = stablehlo.constant dense<[1.00390625]> : tensor<1xf32>
  %init = stablehlo.constant dense<0.0> : tensor<bf16>
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<1xf32>, tensor<bf16>) -> tensor<bf16>
   reducer(%a: tensor<bf16>, %b: tensor<bf16>) {
    %n = stablehlo.negate %b : tensor<bf16>
    stablehlo.return %n : tensor<bf16>
  }
  %big = stablehlo.constant dense<-5.0> : tensor<bf16>
  %m = stablehlo.reduce(%x init: %big) across dimensions = [0] : (tensor<1xf32>, tensor<bf16>) -> tensor<bf16>
   reducer(%a: tensor<bf16>, %b: tensor<bf16>) {
    %c = stablehlo.compare GT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %s = stablehlo.select %c, %a, %b : tensor<i1>, tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }
  return %r, %m : tensor<bf16>, tensor<bf16>
}
