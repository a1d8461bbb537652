// stablehlo.rng draws from a Philox stream keyed by --seed (see
// docs/interpreter.md): values lie in the distribution's range, have its
// moments, and are the same on every run with the same seed.
// RUN: toast-run %s | FileCheck %s
// RUN: toast-run %s --entry samples --print-results --seed 7 > %t.a
// RUN: toast-run %s --entry samples --print-results --seed 7 > %t.b
// RUN: toast-run %s --entry samples --print-results --seed 8 > %t.c
// RUN: diff %t.a %t.b
// RUN: not diff %t.a %t.c
// RUN: FileCheck %s --check-prefix=SAMPLES < %t.a
// Both programs of a comparison draw the same numbers.
// RUN: toast-run --compare %s %s --entry samples | FileCheck %s --check-prefix=COMPARE

// CHECK: @main: 6 checks passed, 0 failed
func.func @main() {
  %true = stablehlo.constant dense<true> : tensor<i1>
  %n = stablehlo.constant dense<[4096]> : tensor<1xi64>

  // UNIFORM floats in [-1, 3): every sample is >= -1 and < 3; the mean of
  // 4096 samples is within 0.1 of 1 (its standard error is
  // (4 / sqrt(12)) / 64 = 0.018).
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %hi = stablehlo.constant dense<3.0> : tensor<f32>
  %u = stablehlo.rng %lo, %hi, %n, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4096xf32>
  %ulo = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<f32>) -> tensor<4096xf32>
  %uhi = stablehlo.broadcast_in_dim %hi, dims = [] : (tensor<f32>) -> tensor<4096xf32>
  %ge = stablehlo.compare GE, %u, %ulo : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xi1>
  %lt = stablehlo.compare LT, %u, %uhi : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xi1>
  %inside = stablehlo.and %ge, %lt : tensor<4096xi1>
  %all = stablehlo.reduce(%inside init: %true) applies stablehlo.and across dimensions = [0] : (tensor<4096xi1>, tensor<i1>) -> tensor<i1>
  stablehlo.custom_call @check.expect_eq(%all, %true) {has_side_effect = true} : (tensor<i1>, tensor<i1>) -> ()
  %umean = func.call @mean(%u) : (tensor<4096xf32>) -> tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %tenth = stablehlo.constant dense<0.1> : tensor<f32>
  %uok = func.call @near(%umean, %one, %tenth) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.custom_call @check.expect_eq(%uok, %true) {has_side_effect = true} : (tensor<i1>, tensor<i1>) -> ()

  // UNIFORM integers in [-3, 3): the smallest sample is -3 and the
  // largest 2 (each of the six values has 4096 chances).
  %ilo = stablehlo.constant dense<-3> : tensor<i8>
  %ihi = stablehlo.constant dense<3> : tensor<i8>
  %i = stablehlo.rng %ilo, %ihi, %n, distribution = UNIFORM : (tensor<i8>, tensor<i8>, tensor<1xi64>) -> tensor<4096xi8>
  %big = stablehlo.constant dense<127> : tensor<i8>
  %small = stablehlo.constant dense<-128> : tensor<i8>
  %imin = stablehlo.reduce(%i init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<4096xi8>, tensor<i8>) -> tensor<i8>
  %imax = stablehlo.reduce(%i init: %small) applies stablehlo.maximum across dimensions = [0] : (tensor<4096xi8>, tensor<i8>) -> tensor<i8>
  %imin1 = stablehlo.reshape %imin : (tensor<i8>) -> tensor<1xi8>
  %imax1 = stablehlo.reshape %imax : (tensor<i8>) -> tensor<1xi8>
  %range = stablehlo.concatenate %imin1, %imax1, dim = 0 : (tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8>
  %range_e = stablehlo.constant dense<[-3, 2]> : tensor<2xi8>
  stablehlo.custom_call @check.expect_eq(%range, %range_e) {has_side_effect = true} : (tensor<2xi8>, tensor<2xi8>) -> ()

  // UNIFORM booleans in [false, true) are all false.
  %false = stablehlo.constant dense<false> : tensor<i1>
  %b = stablehlo.rng %false, %true, %n, distribution = UNIFORM : (tensor<i1>, tensor<i1>, tensor<1xi64>) -> tensor<4096xi1>
  %any = stablehlo.reduce(%b init: %false) applies stablehlo.or across dimensions = [0] : (tensor<4096xi1>, tensor<i1>) -> tensor<i1>
  stablehlo.custom_call @check.expect_eq(%any, %false) {has_side_effect = true} : (tensor<i1>, tensor<i1>) -> ()

  // NORMAL with mean 5 and standard deviation 2: the sample mean is within
  // 0.2 of 5 (standard error 2 / 64 = 0.03) and the sample standard
  // deviation within 0.2 of 2.
  %mu = stablehlo.constant dense<5.0> : tensor<f32>
  %sigma = stablehlo.constant dense<2.0> : tensor<f32>
  %g = stablehlo.rng %mu, %sigma, %n, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4096xf32>
  %gmean = func.call @mean(%g) : (tensor<4096xf32>) -> tensor<f32>
  %fifth = stablehlo.constant dense<0.2> : tensor<f32>
  %mok = func.call @near(%gmean, %mu, %fifth) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.custom_call @check.expect_eq(%mok, %true) {has_side_effect = true} : (tensor<i1>, tensor<i1>) -> ()
  %gm = stablehlo.broadcast_in_dim %gmean, dims = [] : (tensor<f32>) -> tensor<4096xf32>
  %dev = stablehlo.subtract %g, %gm : tensor<4096xf32>
  %sq = stablehlo.multiply %dev, %dev : tensor<4096xf32>
  %var = func.call @mean(%sq) : (tensor<4096xf32>) -> tensor<f32>
  %sd = stablehlo.sqrt %var : tensor<f32>
  %sok = func.call @near(%sd, %sigma, %fifth) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.custom_call @check.expect_eq(%sok, %true) {has_side_effect = true} : (tensor<i1>, tensor<i1>) -> ()
  return
}

func.func private @mean(%x: tensor<4096xf32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4096xf32>, tensor<f32>) -> tensor<f32>
  %count = stablehlo.constant dense<4096.0> : tensor<f32>
  %mean = stablehlo.divide %sum, %count : tensor<f32>
  return %mean : tensor<f32>
}

// |x - target| < tolerance.
func.func private @near(%x: tensor<f32>, %target: tensor<f32>, %tolerance: tensor<f32>) -> tensor<i1> {
  %d = stablehlo.subtract %x, %target : tensor<f32>
  %a = stablehlo.abs %d : tensor<f32>
  %ok = stablehlo.compare LT, %a, %tolerance : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %ok : tensor<i1>
}

// Two executions of one op draw different numbers.
// SAMPLES: result #0: tensor<4xf32> [[FIRST:\[.*\]]]
// SAMPLES-NOT: [[FIRST]]
// SAMPLES: @samples: 0 checks passed, 0 failed
// COMPARE: result #0 tensor<4xf32>: max abs error 0.000e+00, max rel error 0.000e+00: ok
// COMPARE: result #1 tensor<4xf32>: max abs error 0.000e+00, max rel error 0.000e+00: ok
// COMPARE: results agree
func.func @samples() -> (tensor<4xf32>, tensor<4xf32>) {
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %n = stablehlo.constant dense<[4]> : tensor<1xi64>
  %0 = stablehlo.rng %lo, %hi, %n, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  %1 = stablehlo.rng %lo, %hi, %n, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
