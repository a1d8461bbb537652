// RUN: toast-opt %s -split-input-file -verify-diagnostics

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @unknown_axis(%x: tensor<8x8xf32>) -> tensor<2x8xf32> {
    // expected-error @+1 {{axis "Q" is not in the mesh}}
    %0 = partir_hlo.all_slice [{"Q"}, {}] %x : tensor<8x8xf32> -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @indivisible(%x: tensor<6x8xf32>) -> tensor<1x8xf32> {
    // An indivisible dimension is padded: ceil(6 / 4) = 2 rows per device.
    // expected-error @+1 {{dimension 0 of the result must be 2, got 1}}
    %0 = partir_hlo.all_slice [{"B"}, {}] %x : tensor<6x8xf32> -> tensor<1x8xf32>
    return %0 : tensor<1x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @wrong_gather(%x: tensor<2x8xf32>) -> tensor<4x8xf32> {
    // expected-error @+1 {{dimension 0 of the result must be 8, got 4}}
    %0 = partir_hlo.all_gather [{"B"}, {}] %x : tensor<2x8xf32> -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @twice(%x: tensor<8x8xf32>) -> tensor<1x8xf32> {
    // expected-error @+1 {{axis "B" is used twice}}
    %0 = partir_hlo.all_slice [{"B", "B"}, {}] %x : tensor<8x8xf32> -> tensor<1x8xf32>
    return %0 : tensor<1x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @reduction(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{unknown reduction "avg"}}
    %0 = partir_hlo.all_reduce "avg" ["B"] %x : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @rank(%x: tensor<8x8xf32>) -> tensor<2x8xf32> {
    // expected-error @+1 {{needs one axis list per dimension (2), got 1}}
    %0 = partir_hlo.all_slice [{"B"}] %x : tensor<8x8xf32> -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

// -----

func.func @no_mesh(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{needs a mesh}}
  %0 = partir_hlo.all_reduce "sum" ["B"] %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @a2a(%x: tensor<16x6xf32>) -> tensor<64x1xf32> {
    // expected-error @+1 {{slice dimension 1 of size 6 is not divisible by 4}}
    %0 = partir_hlo.all_to_all 0 -> 1 ["B"] %x : tensor<16x6xf32> -> tensor<64x1xf32>
    return %0 : tensor<64x1xf32>
  }
}

// -----

// Axes cut a dimension into per-device chunks of a known size: a dynamic
// dimension under axes is rejected, in the operand or in the result.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @gather_dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
    // expected-error @+1 {{'partir_hlo.all_gather' op dimension 0 must be static in the operand and the result because axes act on it, got 'tensor<?x8xf32>' -> 'tensor<?x8xf32>'}}
    %0 = partir_hlo.all_gather [{"B"}, {}] %x : tensor<?x8xf32> -> tensor<?x8xf32>
    return %0 : tensor<?x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @gather_dynamic_result(%x: tensor<2x8xf32>) -> tensor<?x8xf32> {
    // expected-error @+1 {{'partir_hlo.all_gather' op dimension 0 must be static in the operand and the result because axes act on it, got 'tensor<2x8xf32>' -> 'tensor<?x8xf32>'}}
    %0 = partir_hlo.all_gather [{"B"}, {}] %x : tensor<2x8xf32> -> tensor<?x8xf32>
    return %0 : tensor<?x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @slice_dynamic(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
    // expected-error @+1 {{'partir_hlo.all_slice' op dimension 1 must be static in the operand and the result because axes act on it, got 'tensor<8x?xf32>' -> 'tensor<8x?xf32>'}}
    %0 = partir_hlo.all_slice [{}, {"M"}] %x : tensor<8x?xf32> -> tensor<8x?xf32>
    return %0 : tensor<8x?xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @slice_dynamic_result(%x: tensor<8x8xf32>) -> tensor<?x8xf32> {
    // expected-error @+1 {{'partir_hlo.all_slice' op dimension 0 must be static in the operand and the result because axes act on it, got 'tensor<8x8xf32>' -> 'tensor<?x8xf32>'}}
    %0 = partir_hlo.all_slice [{"B"}, {}] %x : tensor<8x8xf32> -> tensor<?x8xf32>
    return %0 : tensor<?x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @scatter_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
    // expected-error @+1 {{'partir_hlo.reduce_scatter' op dimension 0 must be static in the operand and the result because axes act on it, got 'tensor<?xf32>' -> 'tensor<?xf32>'}}
    %0 = partir_hlo.reduce_scatter "sum" [{"B"}] %x : tensor<?xf32> -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @a2a_dynamic_gather(%x: tensor<?x8xf32>) -> tensor<?x2xf32> {
    // expected-error @+1 {{'partir_hlo.all_to_all' op gather dimension 0 must be static in the operand and the result because axes act on it, got 'tensor<?x8xf32>' -> 'tensor<?x2xf32>'}}
    %0 = partir_hlo.all_to_all 0 -> 1 ["B"] %x : tensor<?x8xf32> -> tensor<?x2xf32>
    return %0 : tensor<?x2xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @a2a_dynamic_slice(%x: tensor<2x?xf32>) -> tensor<8x?xf32> {
    // expected-error @+1 {{'partir_hlo.all_to_all' op slice dimension 1 must be static in the operand and the result because axes act on it, got 'tensor<2x?xf32>' -> 'tensor<8x?xf32>'}}
    %0 = partir_hlo.all_to_all 0 -> 1 ["B"] %x : tensor<2x?xf32> -> tensor<8x?xf32>
    return %0 : tensor<8x?xf32>
  }
}

// -----

// A dimension without axes keeps its size, whether static or dynamic.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @no_axes_resize(%x: tensor<2x?xf32>) -> tensor<8x4xf32> {
    // expected-error @+1 {{'partir_hlo.all_gather' op dimension 1 has no axes, so the result must keep its size, got 'tensor<2x?xf32>' -> 'tensor<8x4xf32>'}}
    %0 = partir_hlo.all_gather [{"B"}, {}] %x : tensor<2x?xf32> -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// Sizes near the int64 limit are reported, not overflowed.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @gather_overflow(%x: tensor<4611686018427387904xf32>) -> tensor<1xf32> {
    // expected-error @+1 {{'partir_hlo.all_gather' op dimension 0 of size 4611686018427387904 gathered 4 times overflows}}
    %0 = partir_hlo.all_gather [{"B"}] %x : tensor<4611686018427387904xf32> -> tensor<1xf32>
    return %0 : tensor<1xf32>
  }
}

// -----

// The mesh itself refuses a device count past 2^31 (the collectives' own
// overflow check stays as a second line).
// expected-error @+1 {{mesh has more than 2147483648 devices (the product of its axis sizes)}}
module attributes {partir.mesh = #partir.mesh<["a"=4294967296, "b"=4294967296]>} {
  func.func @axes_overflow(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = partir_hlo.all_reduce "sum" ["a", "b"] %x : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @a2a_rank(%x: tensor<8x8xf32>) -> tensor<64xf32> {
    // expected-error @+1 {{'partir_hlo.all_to_all' op result must have the operand's rank, got 'tensor<8x8xf32>' -> 'tensor<64xf32>'}}
    %0 = partir_hlo.all_to_all 0 -> 1 ["B"] %x : tensor<8x8xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
  }
}

// -----

// reduce_scatter does not pad.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @padded_reduce_scatter(%x: tensor<6xf32>) -> tensor<2xf32> {
    // expected-error @+1 {{dimension 0 of size 6 is not divisible by 4}}
    %0 = partir_hlo.reduce_scatter "sum" [{"B"}] %x : tensor<6xf32> -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// A padded all_gather gives at most the gathered rows and drops fewer than
// one chunk.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @padded_gather_size(%x: tensor<3xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{dimension 0 of the result must be 12, got 8}}
    %0 = partir_hlo.all_gather [{"B"}] %x : tensor<3xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
