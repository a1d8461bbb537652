// A nest position beyond the mesh's axes is reported on the op asked.
// RUN: toast-opt %s --partir-manual-partition="name=B axis=b inputs=#0=result0:0@3 mesh=a=2,b=2" -verify-diagnostics -split-input-file

func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xi32> {
  // expected-error @below {{tile: op 'stablehlo.iota' cannot loop over axis "b" at nest position 3: a nest has at most 2 loops (one per mesh axis), positions count from 0}}
  %i = stablehlo.iota dim = 0 : tensor<8x4xi32>
  return %i : tensor<8x4xi32>
}
