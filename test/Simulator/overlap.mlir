// One stream (default) versus two overlapping streams (overlap=true).
// Unit device: f32 1e12 FLOP/s; links 1e9 B/s, 1e-6 s per step.
//
// The dot (2*256*16*8 = 65536 FLOPs: 6.5536e-08 s) does not depend on the
// all_gather over A (n = 2, result 4096 B: 1e-6 + 2048/1e9 = 3.048e-06 s).
//   one stream:  6.5536e-08 + 3.048e-06 = 3.113536e-06 s
//   two streams: max(6.5536e-08, 3.048e-06) = 3.048e-06 s
// The exp after the gather waits for it either way (it takes no time when
// not memory-bound). compute_time_s and comm_time_s are sums in both modes.
//
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json json=%t.one.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t.one.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json overlap=true json=%t.two.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t.two.json

// ONE:      "step_time_s": 3.113536e-06,
// ONE-NEXT: "compute_time_s": 6.5536e-08,
// ONE-NEXT: "comm_time_s": 3.048e-06,

// TWO:      "step_time_s": 3.048e-06,
// TWO-NEXT: "compute_time_s": 6.5536e-08,
// TWO-NEXT: "comm_time_s": 3.048e-06,

module attributes {partir.mesh = #partir.mesh<["A"=2]>} {
  func.func @main(%x: tensor<256x8xf32>, %w: tensor<8x16xf32>, %v: tensor<512xf32>)
      -> (tensor<256x16xf32>, tensor<1024xf32>) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %g = partir_hlo.all_gather [{"A"}] %v : tensor<512xf32> -> tensor<1024xf32>
    %e = stablehlo.exponential %g : tensor<1024xf32>
    return %y, %e : tensor<256x16xf32>, tensor<1024xf32>
  }
}
