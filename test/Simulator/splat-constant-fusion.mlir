// A splat constant of more than one element is a broadcast of a scalar to
// an XLA-like backend: it fuses into the loop ops that read it and has no
// buffer (torch-mlir writes relu as `maximum(x, dense<0.0> : <full shape>)`).
// Peak: x and y, 2 x 4096 B = 8192 B; the memory traffic is x read and y
// written. Without fusion the constant is a buffer: 12288 B. A non-splat
// constant stays a buffer either way.
// RUN: toast-opt %s --partir-simulate="device=a100 json=%t.json summary=false" -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: toast-opt %s --partir-simulate="device=a100 fusion=false json=%t.unfused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=UNFUSED < %t.unfused.json
// RUN: toast-opt %s --partir-simulate="device=a100 function=dense json=%t.dense.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DENSE < %t.dense.json

// CHECK: "peak_memory_bytes": 8192,
// CHECK: "memory_traffic_bytes": 8192,
// UNFUSED: "peak_memory_bytes": 12288,
// DENSE: "peak_memory_bytes": 48,

func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<1024xf32>
  %y = stablehlo.maximum %x, %zero : tensor<1024xf32>
  return %y : tensor<1024xf32>
}

func.func @dense(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = stablehlo.maximum %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
