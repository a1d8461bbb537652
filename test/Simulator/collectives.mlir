// Each collective kind on mesh axes of size 2, 4 and 8, priced by hand on
// the unit device (Inputs/unit-device.json: every link 1e9 B/s and 1e-6 s
// per ring step; axis "S" 1e8 B/s and 1e-5 s).
//
// Ring model (n = devices in the group):
//   all_gather of a 1024xf32 result (R = 4096 B): n-1 steps, (n-1)/n * R
//   reduce_scatter of a 1024xf32 operand (S = 4096 B): same as all_gather
//   all_reduce of S: 2(n-1) steps, 2(n-1)/n * S
//   all_to_all of a 16x64xf32 operand (L = 4096 B): n-1 steps, (n-1)/2 * L
//   all_slice: no communication; the dynamic-slice it lowers to (a copy:
//   its result is returned, so no view) reads and writes its R/n bytes,
//   2 R/n / 1e9 s of compute (n=2 4.096e-06, n=4 2.048e-06, n=8 1.024e-06)
//   time = steps * 1e-6 + bytes / 1e9
//
//   n | all_gather, reduce_scatter | all_reduce          | all_to_all
//   2 | 1 step, 2048 B, 3.048e-06  | 2, 4096, 6.096e-06  | 1, 2048, 3.048e-06
//   4 | 3, 3072, 6.072e-06         | 6, 6144, 1.2144e-05 | 3, 6144, 9.144e-06
//   8 | 7, 3584, 1.0584e-05        | 14, 7168, 2.1168e-05| 7, 14336, 2.1336e-05
//
// Communication: n=2 1.524e-05 s, 10240 B; n=4 3.3432e-05 s, 18432 B;
//         n=8 6.3672e-05 s, 28672 B; steps 1.9336e-05, 3.548e-05 and
//         6.4696e-05 s with the slice.
// Two axes {A, B} form one group of 8: the same as n = 8. A group over
// {A, S} (n = 4) runs at the slower link: 3 * 1e-5 + 3072 / 1e8 = 6.072e-05.
//
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=n2 json=%t.n2.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=N2 < %t.n2.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=n4 json=%t.n4.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=N4 < %t.n4.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=n8 json=%t.n8.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=N8 < %t.n8.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=two_axes json=%t.two.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t.two.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=slow_axis json=%t.slow.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=SLOW < %t.slow.json

// N2:      "step_time_s": 1.9336e-05,
// N2-NEXT: "compute_time_s": 4.096e-06,
// N2-NEXT: "comm_time_s": 1.524e-05,
// N2-NEXT: "flops": 0,
// N2-NEXT: "comm_bytes": 10240,
// N2:      "collectives": {
// N2-NEXT:   "all_gather": 1,
// N2-NEXT:   "all_reduce": 1,
// N2-NEXT:   "reduce_scatter": 1,
// N2-NEXT:   "all_to_all": 1,
// N2-NEXT:   "collective_permute": 0
// N2:      "collective_time_s": {
// N2-NEXT:   "all_gather": 3.048e-06,
// N2-NEXT:   "all_reduce": 6.096e-06,
// N2-NEXT:   "reduce_scatter": 3.048e-06,
// N2-NEXT:   "all_to_all": 3.048e-06,
// N2:      "collective_bytes": {
// N2-NEXT:   "all_gather": 2048,
// N2-NEXT:   "all_reduce": 4096,
// N2-NEXT:   "reduce_scatter": 2048,
// N2-NEXT:   "all_to_all": 2048,

// N4:      "step_time_s": 3.548e-05,
// N4-NEXT: "compute_time_s": 2.048e-06,
// N4-NEXT: "comm_time_s": 3.3432e-05,
// N4-NEXT: "flops": 0,
// N4-NEXT: "comm_bytes": 18432,
// N4:      "collectives": {
// N4-NEXT:   "all_gather": 1,
// N4-NEXT:   "all_reduce": 1,
// N4-NEXT:   "reduce_scatter": 1,
// N4-NEXT:   "all_to_all": 1,
// N4-NEXT:   "collective_permute": 0
// N4:      "collective_time_s": {
// N4-NEXT:   "all_gather": 6.072e-06,
// N4-NEXT:   "all_reduce": 1.2144e-05,
// N4-NEXT:   "reduce_scatter": 6.072e-06,
// N4-NEXT:   "all_to_all": 9.144e-06,
// N4:      "collective_bytes": {
// N4-NEXT:   "all_gather": 3072,
// N4-NEXT:   "all_reduce": 6144,
// N4-NEXT:   "reduce_scatter": 3072,
// N4-NEXT:   "all_to_all": 6144,

// N8:      "step_time_s": 6.4696e-05,
// N8-NEXT: "compute_time_s": 1.024e-06,
// N8-NEXT: "comm_time_s": 6.3672e-05,
// N8-NEXT: "flops": 0,
// N8-NEXT: "comm_bytes": 28672,
// N8:      "collectives": {
// N8-NEXT:   "all_gather": 1,
// N8-NEXT:   "all_reduce": 1,
// N8-NEXT:   "reduce_scatter": 1,
// N8-NEXT:   "all_to_all": 1,
// N8-NEXT:   "collective_permute": 0
// N8:      "collective_time_s": {
// N8-NEXT:   "all_gather": 1.0584e-05,
// N8-NEXT:   "all_reduce": 2.1168e-05,
// N8-NEXT:   "reduce_scatter": 1.0584e-05,
// N8-NEXT:   "all_to_all": 2.1336e-05,
// N8:      "collective_bytes": {
// N8-NEXT:   "all_gather": 3584,
// N8-NEXT:   "all_reduce": 7168,
// N8-NEXT:   "reduce_scatter": 3584,
// N8-NEXT:   "all_to_all": 14336,

// TWO:      "step_time_s": 1.0584e-05,
// TWO:      "comm_bytes": 3584,

// SLOW:     "step_time_s": 6.072e-05,
// SLOW:     "comm_bytes": 3072,

module attributes {partir.mesh = #partir.mesh<["A"=2, "B"=4, "C"=8, "S"=2]>} {
  func.func private @n2(%x: tensor<512xf32>, %y: tensor<1024xf32>, %z: tensor<16x64xf32>)
      -> (tensor<1024xf32>, tensor<512xf32>, tensor<1024xf32>, tensor<32x32xf32>, tensor<512xf32>) {
    %g = partir_hlo.all_gather [{"A"}] %x : tensor<512xf32> -> tensor<1024xf32>
    %r = partir_hlo.reduce_scatter "sum" [{"A"}] %y : tensor<1024xf32> -> tensor<512xf32>
    %a = partir_hlo.all_reduce "sum" ["A"] %y : tensor<1024xf32>
    %t = partir_hlo.all_to_all 0 -> 1 ["A"] %z : tensor<16x64xf32> -> tensor<32x32xf32>
    %s = partir_hlo.all_slice [{"A"}] %y : tensor<1024xf32> -> tensor<512xf32>
    return %g, %r, %a, %t, %s : tensor<1024xf32>, tensor<512xf32>, tensor<1024xf32>, tensor<32x32xf32>, tensor<512xf32>
  }

  func.func private @n4(%x: tensor<256xf32>, %y: tensor<1024xf32>, %z: tensor<16x64xf32>)
      -> (tensor<1024xf32>, tensor<256xf32>, tensor<1024xf32>, tensor<64x16xf32>, tensor<256xf32>) {
    %g = partir_hlo.all_gather [{"B"}] %x : tensor<256xf32> -> tensor<1024xf32>
    %r = partir_hlo.reduce_scatter "sum" [{"B"}] %y : tensor<1024xf32> -> tensor<256xf32>
    %a = partir_hlo.all_reduce "sum" ["B"] %y : tensor<1024xf32>
    %t = partir_hlo.all_to_all 0 -> 1 ["B"] %z : tensor<16x64xf32> -> tensor<64x16xf32>
    %s = partir_hlo.all_slice [{"B"}] %y : tensor<1024xf32> -> tensor<256xf32>
    return %g, %r, %a, %t, %s : tensor<1024xf32>, tensor<256xf32>, tensor<1024xf32>, tensor<64x16xf32>, tensor<256xf32>
  }

  func.func private @n8(%x: tensor<128xf32>, %y: tensor<1024xf32>, %z: tensor<16x64xf32>)
      -> (tensor<1024xf32>, tensor<128xf32>, tensor<1024xf32>, tensor<128x8xf32>, tensor<128xf32>) {
    %g = partir_hlo.all_gather [{"C"}] %x : tensor<128xf32> -> tensor<1024xf32>
    %r = partir_hlo.reduce_scatter "sum" [{"C"}] %y : tensor<1024xf32> -> tensor<128xf32>
    %a = partir_hlo.all_reduce "sum" ["C"] %y : tensor<1024xf32>
    %t = partir_hlo.all_to_all 0 -> 1 ["C"] %z : tensor<16x64xf32> -> tensor<128x8xf32>
    %s = partir_hlo.all_slice [{"C"}] %y : tensor<1024xf32> -> tensor<128xf32>
    return %g, %r, %a, %t, %s : tensor<1024xf32>, tensor<128xf32>, tensor<1024xf32>, tensor<128x8xf32>, tensor<128xf32>
  }

  func.func private @two_axes(%x: tensor<128xf32>) -> tensor<1024xf32> {
    %g = partir_hlo.all_gather [{"A", "B"}] %x : tensor<128xf32> -> tensor<1024xf32>
    return %g : tensor<1024xf32>
  }

  func.func private @slow_axis(%x: tensor<256xf32>) -> tensor<1024xf32> {
    %g = partir_hlo.all_gather [{"A", "S"}] %x : tensor<256xf32> -> tensor<1024xf32>
    return %g : tensor<1024xf32>
  }
}
