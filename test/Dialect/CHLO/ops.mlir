// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of the CHLO ops JAX exports contain.

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:[^:]+]]: tensor<20x20xf32>)
func.func @unary(%x: tensor<20x20xf32>) {
  // CHECK: chlo.acos %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %0 = chlo.acos %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.acosh %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %1 = chlo.acosh %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.asin %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %2 = chlo.asin %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.asinh %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %3 = chlo.asinh %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.atan %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %4 = chlo.atan %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.atanh %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %5 = chlo.atanh %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.bessel_i1e %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %6 = chlo.bessel_i1e %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.cosh %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %7 = chlo.cosh %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.digamma %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %8 = chlo.digamma %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.erf %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %9 = chlo.erf %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.erf_inv %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %10 = chlo.erf_inv %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.erfc %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %11 = chlo.erfc %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.lgamma %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %12 = chlo.lgamma %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.sinh %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %13 = chlo.sinh %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.square %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %14 = chlo.square %x : tensor<20x20xf32> -> tensor<20x20xf32>
  // CHECK: chlo.tan %[[X]] : tensor<20x20xf32> -> tensor<20x20xf32>
  %15 = chlo.tan %x : tensor<20x20xf32> -> tensor<20x20xf32>
  return
}

// CHECK-LABEL: func.func @complex_and_predicates
// CHECK-SAME: (%[[C:[^:]+]]: tensor<4xcomplex<f32>>, %[[X:[^:]+]]: tensor<4xbf16>)
func.func @complex_and_predicates(%c: tensor<4xcomplex<f32>>, %x: tensor<4xbf16>) {
  // CHECK: chlo.conj %[[C]] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %0 = chlo.conj %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  // CHECK: chlo.is_inf %[[X]] : tensor<4xbf16> -> tensor<4xi1>
  %1 = chlo.is_inf %x : tensor<4xbf16> -> tensor<4xi1>
  // CHECK: chlo.is_neg_inf %[[X]] : tensor<4xbf16> -> tensor<4xi1>
  %2 = chlo.is_neg_inf %x : tensor<4xbf16> -> tensor<4xi1>
  // CHECK: chlo.is_pos_inf %[[X]] : tensor<4xbf16> -> tensor<4xi1>
  %3 = chlo.is_pos_inf %x : tensor<4xbf16> -> tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:[^:]+]]: tensor<3xf64>, %[[B:[^:]+]]: tensor<3xf64>)
func.func @binary(%a: tensor<3xf64>, %b: tensor<3xf64>) {
  // CHECK: chlo.next_after %[[A]], %[[B]] : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  %0 = chlo.next_after %a, %b : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  // CHECK: chlo.polygamma %[[A]], %[[B]] : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  %1 = chlo.polygamma %a, %b : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  // CHECK: chlo.zeta %[[B]], %[[A]] : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  %2 = chlo.zeta %b, %a : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  return
}

// CHECK-LABEL: func.func @top_k
// CHECK-SAME: (%[[X:[^:]+]]: tensor<5x3xf32>, %[[D:[^:]+]]: tensor<?x8xbf16>)
func.func @top_k(%x: tensor<5x3xf32>, %d: tensor<?x8xbf16>) {
  // CHECK: chlo.top_k(%[[X]], k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  // k may equal the size of the last dimension; leading dimensions may be dynamic.
  // CHECK: chlo.top_k(%[[D]], k = 8) : tensor<?x8xbf16> -> (tensor<?x8xbf16>, tensor<?x8xi32>)
  %0:2 = chlo.top_k(%d, k = 8) : tensor<?x8xbf16> -> (tensor<?x8xbf16>, tensor<?x8xi32>)
  // CHECK: chlo.top_k(%[[X]], k = 1) {mhlo.sharding = "{replicated}"} : tensor<5x3xf32> -> (tensor<5x1xf32>, tensor<5x1xi32>)
  %1:2 = "chlo.top_k"(%x) {k = 1 : i64, mhlo.sharding = "{replicated}"} : (tensor<5x3xf32>) -> (tensor<5x1xf32>, tensor<5x1xi32>)
  return
}

// CHLO and StableHLO ops mix freely.
// CHECK-LABEL: func.func @mixed
func.func @mixed(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[E:.+]] = chlo.erf %{{.+}} : tensor<4xf32> -> tensor<4xf32>
  // CHECK: stablehlo.add %[[E]], %[[E]] {mhlo.frontend_attributes = {x = "y"}} : tensor<4xf32>
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = stablehlo.add %0, %0 {mhlo.frontend_attributes = {x = "y"}} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
