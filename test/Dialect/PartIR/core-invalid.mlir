// RUN: toast-opt %s -split-input-file -verify-diagnostics

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @unknown_axis(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{axis "Q" is not in the mesh}}
    %r = partir.loop "Q" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = partir.slice 0 %x[%r] : tensor<8xf32> -> tensor<2xf32>
      partir.yield %s : tensor<2xf32>
    } : tensor<8xf32>
    return %r : tensor<8xf32>
  }
}

// -----

func.func @no_mesh(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{needs a mesh}}
  %r = partir.loop "B" [#partir.any] (%r: !partir.range<4>) {
    partir.yield %x : tensor<8xf32>
  } : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @nested_same_axis(%x: tensor<16xf32>) -> tensor<16xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      // expected-error @+1 {{is nested in another loop over axis "B"}}
      %i = partir.loop "B" [#partir.tile<0>] (%q: !partir.range<4>) {
        %s = partir.slice 0 %x[%q] : tensor<16xf32> -> tensor<4xf32>
        %t = partir.slice 0 %s[%r] : tensor<4xf32> -> tensor<1xf32>
        partir.yield %t : tensor<1xf32>
      } : tensor<4xf32>
      partir.yield %i : tensor<4xf32>
    } : tensor<16xf32>
    return %r : tensor<16xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @indivisible(%x: tensor<6xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      // An indivisible dimension is padded: 4 chunks of ceil(6 / 4) = 2 rows.
      // expected-error @+1 {{result type 'tensor<1xf32>' is not chunk of 4 along dimension 0 of 'tensor<6xf32>'}}
      %s = "partir.slice"(%x, %r) <{dim = 0 : i64}> : (tensor<6xf32>, !partir.range<4>) -> tensor<1xf32>
      %t = partir.slice 0 %y[%r] : tensor<8xf32> -> tensor<2xf32>
      partir.yield %t : tensor<2xf32>
    } : tensor<8xf32>
    return %r : tensor<8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @bad_tile_type(%x: tensor<8xf32>) -> tensor<16xf32> {
    // expected-error @+1 {{result 0: yielded 'tensor<2xf32>' tiled 4 times along dimension 0 does not give 'tensor<16xf32>'}}
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = partir.slice 0 %x[%r] : tensor<8xf32> -> tensor<2xf32>
      partir.yield %s : tensor<2xf32>
    } : tensor<16xf32>
    return %r : tensor<16xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @dynamic_tile(%x: tensor<?xf32>) -> tensor<?xf32> {
    // expected-error @+1 {{result 0: tile dimension 0 must be static, got 'tensor<?xf32>' and 'tensor<?xf32>'}}
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      partir.yield %x : tensor<?xf32>
    } : tensor<?xf32>
    return %r : tensor<?xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @tile_overflow(%x: tensor<4611686018427387904xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{result 0: yielded 'tensor<4611686018427387904xf32>' tiled 4 times along dimension 0 does not give 'tensor<4xf32>'}}
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      partir.yield %x : tensor<4611686018427387904xf32>
    } : tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @wrong_range(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{body must take one !partir.range<2> argument}}
    %r = partir.loop "M" [#partir.any] (%r: !partir.range<4>) {
      partir.yield %x : tensor<8xf32>
    } : tensor<8xf32>
    return %r : tensor<8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @sum_type(%x: tensor<8xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{result 0: yielded type 'tensor<8xf32>' must equal the result type 'tensor<4xf32>'}}
    %r = partir.loop "M" [#partir.sum] (%r: !partir.range<2>) {
      partir.yield %x : tensor<8xf32>
    } : tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{mesh axis "B" appears twice}}
module attributes {partir.mesh = #partir.mesh<["B"=4, "B"=2]>} {
}

// -----

// expected-error @+1 {{mesh axis "B" must have a positive size, got 0}}
module attributes {partir.mesh = #partir.mesh<["B"=0]>} {
}

// -----

// The device count, the product of the sizes, must not overflow.
// expected-error @+1 {{mesh has more than 2147483648 devices (the product of its axis sizes)}}
module attributes {partir.mesh = #partir.mesh<["B"=4294967296, "C"=4294967296]>} {
}

// -----

// A padded tile holds ceil(size / n) rows: 3 for 10 rows on 4 devices.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @padded_tile_type(%x: tensor<10xf32>) -> tensor<10xf32> {
    // expected-error @+1 {{result 0: yielded 'tensor<2xf32>' tiled 4 times along dimension 0 does not give 'tensor<10xf32>'}}
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = "partir.slice"(%x, %r) <{dim = 0 : i64}> : (tensor<10xf32>, !partir.range<4>) -> tensor<2xf32>
      partir.yield %s : tensor<2xf32>
    } : tensor<10xf32>
    return %r : tensor<10xf32>
  }
}

// -----

// Without the range type, a padded slice's range size is ambiguous.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @padded_slice_syntax(%x: tensor<10xf32>) -> tensor<10xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      // expected-error @+1 {{expected ranked tensor types whose dimension 0 sizes divide (or a `%r : !partir.range<N>` index)}}
      %s = partir.slice 0 %x[%r] : tensor<10xf32> -> tensor<3xf32>
      partir.yield %s : tensor<3xf32>
    } : tensor<10xf32>
    return %r : tensor<10xf32>
  }
}

// -----

// A range indexes the loop over a mesh axis, whose sizes are positive.
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  // expected-error @+1 {{!partir.range size must be positive, got 0}}
  func.func @empty_range(%r: !partir.range<0>) {
    return
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  // expected-error @+1 {{!partir.range size must be positive, got -3}}
  func.func @negative_range(%r: !partir.range<-3>) {
    return
  }
}

// -----

// The range a slice derives from its types must be positive too: an empty
// dimension gives none.
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @empty_slice(%x: tensor<0xf32>, %r: !partir.range<4>) -> tensor<1xf32> {
    // expected-error @+1 {{!partir.range size must be positive, got 0}}
    %s = partir.slice 0 %x[%r] : tensor<0xf32> -> tensor<1xf32>
    return %s : tensor<1xf32>
  }
}

// -----

// Nor can it derive one from a dynamic size.
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @dynamic_slice(%x: tensor<?xf32>, %r: !partir.range<4>) -> tensor<2xf32> {
    // expected-error @+1 {{dimension 0 of 'tensor<?xf32>' must be static to be sliced}}
    %s = partir.slice 0 %x[%r] : tensor<?xf32> -> tensor<2xf32>
    return %s : tensor<2xf32>
  }
}
