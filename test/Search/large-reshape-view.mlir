// A reshape of a value of 4 GiB or more read after an all_gather is a view
// (no copy), as the simulator prices it. The pricer kept the result's bytes
// in a 32-bit int (2^32 B -> 0), so the reshape no longer matched its input's
// bytes and was priced as a copy: 18.756 ms here against 13.231 ms lowered;
// the torch-xla MoE export's expert reshapes (4 GiB in bf16) put three states
// of a 100-rollout search 22.1 ms and 2.68 GB high.
//
// RUN: toast-opt %s --toast-emit-planned="device=a100 report=true" --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CORE
// CHECK: remark: planned: analytic step time 1.32315{{[0-9]*}}e+01 ms, 1 all_gather
// CHECK: step time      : 13.231 ms
// CORE: step time      : 13.231 ms

module attributes {partir.mesh = #partir.mesh<["B"=8]>} {
  func.func @main(%x: tensor<4x1024x1024x512xbf16>) -> tensor<4096x1024x512xbf16> {
    %t = stablehlo.transpose %x, dims = [1, 0, 2, 3] {partir.loops = ["B:2"]} : (tensor<4x1024x1024x512xbf16>) -> tensor<1024x4x1024x512xbf16>
    %r = stablehlo.reshape %t : (tensor<1024x4x1024x512xbf16>) -> tensor<4096x1024x512xbf16>
    return %r : tensor<4096x1024x512xbf16>
  }
}
