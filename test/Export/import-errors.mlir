// Bad input for --partir-import-shardings: located errors for what cannot
// be imported, warnings for well-formed shardings Toast does not represent
// (which are then ignored).
// RUN: toast-opt %s -split-input-file --partir-import-shardings -verify-diagnostics

// An unknown axis in sdy.sharding is rejected by the sdy dialect when the
// program is verified.
sdy.mesh @mesh = <["data"=4]>
// expected-error @+1 {{argument 0: unknown axis "model" in mesh @mesh #sdy.mesh<["data"=4]>}}
func.func @main(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{argument 1: malformed mhlo.sharding "{devices=[4,1]<=[3]}": iota '<=[...]' must have 4 devices, the product of the tile dimensions}}
func.func @main(%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"},
                %y: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1]<=[3]}"}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{argument 0: malformed mhlo.sharding "{devices=[2,2]0,1,2}": expected 4 device ids, got 3}}
func.func @main(%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,2]0,1,2}"}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{result 0: malformed mhlo.sharding "{devices=[2,1]<=[2] sideways}": unexpected 'sideways}'}}
func.func @main(%x: tensor<16x8xf32>) -> (tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2] sideways}"}) {
  return %x : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{argument 0: mhlo.sharding "{devices=[4,1,1]<=[4]}" tiles 3 dimensions but the type is 'tensor<16x8xf32>'}}
func.func @main(%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// -----

// Mesh mismatch: the module's partir.mesh and the sdy mesh differ.
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  // expected-error @+1 {{mesh mismatch: the module's partir.mesh is #partir.mesh<["B"=4, "M"=2]> but the shardings use this mesh}}
  sdy.mesh @mesh = <["data"=8]>
  func.func @main(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<16x8xf32> {
    return %x : tensor<16x8xf32>
  }
}

// -----

// Mesh mismatch: a 4x2 tile assignment on a mesh with a single axis of 8.
module attributes {partir.mesh = #partir.mesh<["x"=8]>} {
  // expected-error @+1 {{argument 0: mesh mismatch: mhlo.sharding "{devices=[4,2]<=[8]}" on mesh #partir.mesh<["x"=8]>: the device order of the sharding does not match the mesh axes}}
  func.func @main(%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"}) -> tensor<16x8xf32> {
    return %x : tensor<16x8xf32>
  }
}

// -----

// Mesh mismatch: 4 devices in the shardings, 8 partitions in the module.
// expected-error @+1 {{mesh mismatch: mhlo.num_partitions is 8 but the mesh #partir.mesh<["d0"=4]> has 4 devices}}
module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @main(%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> tensor<16x8xf32> {
    return %x : tensor<16x8xf32>
  }
}

// -----

// Shardings over different device counts.
// expected-error @+1 {{cannot build a mesh from the mhlo.sharding annotations: shardings over different device counts (4 and 2)}}
func.func @main(%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"},
                %y: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// -----

// A tiling the dimension does not divide is padded (docs/dialects.md); one
// with fewer rows than tiles is reported by the tile action.
// expected-error @+2 {{tile: dimension 0 of size 3 is not divisible into 4 tiles (axis "d0" has size 4; padding takes one axis per dimension and at least one row per tile)}}
// expected-error @+1 {{argument 0: cannot apply the sharding}}
func.func @main(%x: tensor<3x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> tensor<3x8xf32> {
  return %x : tensor<3x8xf32>
}

// -----

// Unsupported but well-formed shardings: a warning each, then ignored.
// expected-warning @+5 {{argument 0: ignoring unsupported mhlo.sharding "{manual}"}}
// expected-warning @+4 {{argument 1: ignoring unsupported mhlo.sharding "{maximal device=1}"}}
// expected-warning @+3 {{argument 2: ignoring unsupported mhlo.sharding}}
// expected-warning @+2 {{argument 3: ignoring mhlo.sharding "{devices=[2,1,2]<=[4] last_tile_dims={manual}}": manual on some axes outside a manual region's boundary}}
// expected-warning @+1 {{argument 4: ignoring mhlo.sharding "{devices=[2,2]0,3,1,2}": the device list is not a product of mesh axes}}
func.func @main(%a: tensor<4xf32> {mhlo.sharding = "{manual}"},
                %b: tensor<4xf32> {mhlo.sharding = "{maximal device=1}"},
                %c: tensor<4xf32> {mhlo.sharding = "{{replicated}, {replicated}}"},
                %d: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"},
                %e: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,2]0,3,1,2}"}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A mesh with a device order Toast cannot represent.
// expected-warning @+1 {{mesh with a device order (device_ids) Toast cannot represent; ignoring the shardings that use it}}
sdy.mesh @ordered = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>
func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@ordered, [{"a"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Replicated shardings on several devices but no mesh: nothing names the
// axes to keep them whole on, so they are dropped, with a warning.
// expected-warning @+1 {{partir-import-shardings: the shardings are all replicated and the module has no mesh (partir.mesh or sdy.mesh), so they are dropped: a later tactic may shard these values; add a partir.mesh to keep them whole}}
module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @main(%x: tensor<4xf32> {mhlo.sharding = "{replicated}"}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
