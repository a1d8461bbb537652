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
    // expected-error @+1 {{dimension 0 of size 6 is not divisible by 4}}
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
