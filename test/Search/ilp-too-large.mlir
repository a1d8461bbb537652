// An ILP whose edge variables would not fit in memory (every op's
// strategies place each of 8 axes: 4^8 strategies per matmul, against 3^8
// per argument: 4.3e8 pairs on the first edge; full-size t2b has 1.6e6) is
// a located error before it is built (before, it ran out of memory).
// REQUIRES: cbc
// RUN: not toast-opt %s --toast-auto-partition="mesh=a=2,b=2,c=2,d=2,e=2,f=2,g=2,h=2 algorithm=ilp budget-s=0" 2>&1 | FileCheck %s
// CHECK: ilp-too-large.mlir:[[@LINE+1]]:3: error: algorithm=ilp: the formulation has more than 50000000 strategy pairs on a mesh of 8 axes
  func.func @main(%x: tensor<128x128xf32>, %w: tensor<128x128xf32>, %v: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %z = stablehlo.dot_general %y, %v, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    return %z : tensor<128x128xf32>
  }
