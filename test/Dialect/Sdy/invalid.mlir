// Verifier and parser errors of the sdy dialect.
// RUN: toast-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=4]>
// expected-error @+1 {{argument 0: unknown axis "c" in mesh @mesh #sdy.mesh<["a"=2, "b"=4]>}}
func.func @unknown_axis(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
// expected-error @+1 {{argument 0: sharding refers to unknown mesh @nomesh}}
func.func @unknown_mesh(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@nomesh, [{"a"}, {}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
// expected-error @+1 {{argument 0: sharding has 1 dimension shardings but 'tensor<16x8xf32>' has rank 2}}
func.func @rank(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
// expected-error @+1 {{argument 0: axis "a" is used twice in the sharding}}
func.func @twice(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", "a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
// expected-error @+1 {{argument 0: axis "a" is used twice in the sharding}}
func.func @replicated_and_sharded(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], replicated={"a"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
// expected-error @+1 {{result 0: unknown axis "z" in mesh @mesh}}
func.func @result(%x: tensor<16x8xf32>) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}) {
  return %x : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @constraint(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op unknown axis "q" in mesh @mesh}}
  %0 = sdy.sharding_constraint %x <@mesh, [{}, {"q"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @per_value_count(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'stablehlo.add' op has 1 results but 'sdy.sharding' has 2 shardings}}
  %0 = stablehlo.add %x, %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]>} : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @per_value_kind(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'stablehlo.add' op 'sdy.sharding' must be a #sdy.sharding_per_value attribute}}
  %0 = stablehlo.add %x, %x {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>} : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{mesh axis "a" appears twice}}
sdy.mesh @dup = <["a"=2, "a"=4]>

// -----

// expected-error @+1 {{mesh axis "a" must have a positive size, got 0}}
sdy.mesh @zero = <["a"=0]>

// -----

// expected-error @+1 {{mesh has 4 devices but 3 device_ids}}
sdy.mesh @ids = <["a"=2, "b"=2], device_ids=[0, 1, 2]>

// -----

// expected-error @+1 {{device id 1 appears twice}}
sdy.mesh @ids = <["a"=2], device_ids=[1, 1]>

// -----

func.func @outside_module() {
  // expected-error @+1 {{'sdy.mesh' op expects parent op 'builtin.module'}}
  "sdy.mesh"() <{sym_name = "m", mesh = #sdy.mesh<["a"=2]>}> : () -> ()
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>
// expected-error @+1 {{'?' must be the last entry of a dimension sharding}}
func.func @open_first(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?, "a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>
// expected-error @+1 {{argument 0: sub-axis "a":(1)2 is the whole axis "a"; write it as "a"}}
func.func @sub_axis_whole(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8]>
// expected-error @+1 {{argument 0: sub-axis "a":(2)3 does not divide axis "a" of size 8 (pre-size times size 6 must divide it)}}
func.func @sub_axis_divide(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(2)3}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8]>
// expected-error @+1 {{argument 0: sub-axis "a":(4)1 must have a size greater than 1}}
func.func @sub_axis_one(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(4)1}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8]>
// expected-error @+1 {{argument 0: axis "a":(2)4 overlaps "a":(1)4 in the sharding}}
func.func @sub_axis_overlap(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)4}, {"a":(2)4}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8]>
// expected-error @+1 {{argument 0: axis "a" overlaps "a":(1)2 in the sharding}}
func.func @sub_axis_and_axis(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}], replicated={"a"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8]>
// expected-error @+1 {{argument 0: sub-axes "a":(1)2 and "a":(2)2 must be merged into one}}
func.func @sub_axis_not_maximal(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, "a":(2)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8]>
// expected-error @+1 {{sub-axis sizes must be positive, got (0)2}}
func.func @sub_axis_zero(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(0)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>
// expected-error @+1 {{expected a priority such as 'p0', got 'q1'}}
func.func @priority(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}q1]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>
// expected-error @+1 {{expected 'replicated' or 'unreduced', got 'other'}}
func.func @keyword(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], other={"a"}>}) {
  return
}

// -----

// expected-error @+1 {{argument 0: unknown axis "b" in mesh #sdy.mesh<["a"=2]>}}
func.func @inline(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"b"}]>}) {
  return
}

// -----

// expected-error @+1 {{expected a mesh symbol such as @mesh or an inline mesh<[...]>}}
func.func @no_mesh(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<[{}]>}) {
  return
}

// -----

// expected-error @+1 {{mesh has 2 devices but 1 device_ids}}
func.func @inline_bad(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2], device_ids=[1]>, [{}]>}) {
  return
}
