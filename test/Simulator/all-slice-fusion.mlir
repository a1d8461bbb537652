// partir_hlo.all_slice under the fusion model (Fusion.h): the dynamic-slice
// XLA lowers it to, on the unit device (Inputs/unit-device.json: 1e9 B/s,
// so every byte moved is 1e-9 s).
//
// @broadcast_slice: a broadcast read only by an all_slice fuses into it, as
// XLA fuses a broadcast into a dynamic-slice: the slice's fusion reads the
// scale s (1024 B) and writes the 4x256 slice (4096 B), the 16x256
// broadcast (16384 B) is never stored. Traffic 1024 + 4096 + the dot's
// 4096 + 16384 + 256 = 25856 B; peak at the dot: s, w, slice, result =
// 1024 + 16384 + 4096 + 256 = 21760 B. Without fusion the broadcast is
// stored (1024 + 16384 B moved), the all_slice is free and the peak, at
// the all_slice, is s, w, broadcast and slice: 37888 B.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=broadcast_slice json=%t.bcast.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BCAST < %t.bcast.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=broadcast_slice fusion=false json=%t.bcast-unfused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BCAST-UNFUSED < %t.bcast-unfused.json
// BCAST:      "step_time_s": 2.5856e-05,
// BCAST:      "peak_memory_bytes": 21760,
// BCAST:      "memory_traffic_bytes": 25856,
// BCAST:      "peak_memory_op": "stablehlo.dot_general",
// BCAST-UNFUSED:      "step_time_s": 3.8144e-05,
// BCAST-UNFUSED:      "peak_memory_bytes": 37888,
// BCAST-UNFUSED:      "memory_traffic_bytes": 38144,
// BCAST-UNFUSED:      "peak_memory_op": "partir_hlo.all_slice",
//
// @contiguous_view: rows of an argument are one contiguous block, read
// where they lie (a view, like a contiguous dynamic_slice): no time, no
// buffer. Peak x, w and the dot's result: 16384 + 16384 + 256 = 33024 B;
// traffic the dot's 4096 + 16384 + 256 = 20736 B. Without fusion the
// all_slice is a free copy (4096 B more at the peak).
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=contiguous_view json=%t.view.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=VIEW < %t.view.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=contiguous_view fusion=false json=%t.view-unfused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=VIEW-UNFUSED < %t.view-unfused.json
// VIEW:      "step_time_s": 2.0736e-05,
// VIEW:      "peak_memory_bytes": 33024,
// VIEW:      "memory_traffic_bytes": 20736,
// VIEW-UNFUSED:      "peak_memory_bytes": 37120,
//
// @strided_copy: columns are strided, so the all_slice copies them: it
// reads and writes the 16x64 slice (2 x 4096 B), then the dot reads it and
// w (4096 B) and writes 1024 B: 17408 B. Peak x, w, slice, result =
// 16384 + 4096 + 4096 + 1024 = 25600 B, with or without fusion; without,
// the copy is free (9216 B).
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=strided_copy json=%t.copy.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=COPY < %t.copy.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=strided_copy fusion=false json=%t.copy-unfused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=COPY-UNFUSED < %t.copy-unfused.json
// COPY:      "step_time_s": 1.7408e-05,
// COPY:      "peak_memory_bytes": 25600,
// COPY:      "memory_traffic_bytes": 17408,
// COPY-UNFUSED:      "step_time_s": 9.216e-06,
// COPY-UNFUSED:      "peak_memory_bytes": 25600,
// COPY-UNFUSED:      "memory_traffic_bytes": 9216,

module attributes {partir.mesh = #partir.mesh<["A"=4]>} {
  func.func private @broadcast_slice(%s: tensor<256xf32>, %w: tensor<256x16xf32>) -> tensor<4x16xf32> {
    %b = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
    %l = partir_hlo.all_slice [{"A"}, {}] %b : tensor<16x256xf32> -> tensor<4x256xf32>
    %d = stablehlo.dot_general %l, %w, contracting_dims = [1] x [0] : (tensor<4x256xf32>, tensor<256x16xf32>) -> tensor<4x16xf32>
    return %d : tensor<4x16xf32>
  }
  func.func private @contiguous_view(%x: tensor<16x256xf32>, %w: tensor<256x16xf32>) -> tensor<4x16xf32> {
    %l = partir_hlo.all_slice [{"A"}, {}] %x : tensor<16x256xf32> -> tensor<4x256xf32>
    %d = stablehlo.dot_general %l, %w, contracting_dims = [1] x [0] : (tensor<4x256xf32>, tensor<256x16xf32>) -> tensor<4x16xf32>
    return %d : tensor<4x16xf32>
  }
  func.func private @strided_copy(%x: tensor<16x256xf32>, %w: tensor<64x16xf32>) -> tensor<16x16xf32> {
    %l = partir_hlo.all_slice [{}, {"A"}] %x : tensor<16x256xf32> -> tensor<16x64xf32>
    %d = stablehlo.dot_general %l, %w, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
    return %d : tensor<16x16xf32>
  }
}
