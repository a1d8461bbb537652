// Verifier errors of sdy.manual_computation: manual axes not in the mesh, a
// body whose types are not the local shapes, dimensions the manual axes do
// not divide, manual axes that an enclosing manual computation already made
// manual, and malformed regions.
// RUN: toast-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @axis_not_in_mesh(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op manual axis "c" is not an axis of the mesh #sdy.mesh<["a"=2, "b"=4]>}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"c"} (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @axis_twice(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op manual axis "a" appears twice}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "a"} (%arg1: tensor<8x32xf32>) {
    sdy.return %arg1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @body_not_local(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body argument 0 has type 'tensor<16x32xf32>' but the local shape of operand 0 on the manual axes is 'tensor<8x32xf32>'}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// The free axis "b" does not make the local shape smaller.
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @free_axis_not_local(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body argument 0 has type 'tensor<8x8xf32>' but the local shape of operand 0 on the manual axes is 'tensor<8x32xf32>'}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.slice %arg1 [0:8, 0:8] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.concatenate %1, %1, %1, %1, dim = 1 : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x32xf32>
    sdy.return %2 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @result_not_local(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op sdy.return operand 0 has type 'tensor<8x32xf32>' but the local shape of result 0 on the manual axes is 'tensor<16x32xf32>'}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    sdy.return %arg1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @sub_axis_local(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body argument 0 has type 'tensor<16x8xf32>' but the local shape of operand 0 on the manual axes is 'tensor<16x16xf32>'}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}, {"b":(1)2}]>] out_shardings=[<@mesh, [{}, {"b":(1)2}]>] manual_axes={"b"} (%arg1: tensor<16x8xf32>) {
    sdy.return %arg1 : tensor<16x8xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @not_divisible(%x: tensor<6x32xf32>) -> tensor<6x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0: dimension 0 of size 6 is not divisible by 4, the size of its manual axes}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"b"} (%arg1: tensor<1x32xf32>) {
    sdy.return %arg1 : tensor<1x32xf32>
  } : (tensor<6x32xf32>) -> tensor<6x32xf32>
  return %0 : tensor<6x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @manual_after_free(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0: dimension 0: manual axis "a" must come before the free axes}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"b", "a"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    sdy.return %arg1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @other = <["a"=2]>
func.func @two_meshes(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op result 0: all shardings must use one mesh, but #sdy.mesh<["a"=2]> is not #sdy.mesh<["a"=2, "b"=4]>}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@other, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    sdy.return %arg1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @unknown_axis_in_sharding(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0: unknown axis "q" in mesh @mesh}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"q"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @sharding_count(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op has 1 operands but 2 in_shardings}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @arg_count(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op has 1 operands but its body takes 0 arguments}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} () {
    %1 = stablehlo.constant dense<0.0> : tensor<16x32xf32>
    sdy.return %1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @return_count(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<16x32xf32>) {
    // expected-error @+1 {{'sdy.return' op returns 2 values but the manual_computation has 1 results}}
    sdy.return %arg1, %arg1 : tensor<16x32xf32>, tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// The body is isolated: it cannot use values from outside.
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @isolated(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} () {
    // expected-error @+1 {{using value defined outside the region}}
    sdy.return %x : tensor<16x32xf32>
  } : () -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

func.func @return_outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.return' op expects parent op 'sdy.manual_computation'}}
  sdy.return %x : tensor<4xf32>
}

// -----

// A nested manual computation cannot make an axis manual again: the outer one
// already split the values over it.
sdy.mesh @mesh = <["B"=2, "M"=2]>
func.func @nested_same_axis(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-note @+1 {{enclosing manual_computation}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"B"}, {}]>] out_shardings=[<@mesh, [{"B"}, {}]>] manual_axes={"B"} (%l: tensor<4x4xf32>) {
    // expected-error @+1 {{'sdy.manual_computation' op manual axis "B" is already manual in an enclosing manual_computation}}
    %1 = sdy.manual_computation(%l) in_shardings=[<@mesh, [{}, {"B"}]>] out_shardings=[<@mesh, [{}, {"B"}]>] manual_axes={"B"} (%k: tensor<4x2xf32>) {
      %2 = stablehlo.tanh %k : tensor<4x2xf32>
      sdy.return %2 : tensor<4x2xf32>
    } : (tensor<4x4xf32>) -> tensor<4x4xf32>
    sdy.return %1 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Two levels up counts too: "a" is manual in the outermost computation.
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @nested_same_axis_two_levels(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-note @+1 {{enclosing manual_computation}}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<4xf32>) {
    %1 = sdy.manual_computation(%l) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"} (%k: tensor<2xf32>) {
      // expected-error @+1 {{'sdy.manual_computation' op manual axis "a" is already manual in an enclosing manual_computation}}
      %2 = sdy.manual_computation(%k) in_shardings=[<@mesh, [{"c", "a"}]>] out_shardings=[<@mesh, [{"c", "a"}]>] manual_axes={"c", "a"} (%j: tensor<1xf32>) {
        sdy.return %j : tensor<1xf32>
      } : (tensor<2xf32>) -> tensor<2xf32>
      sdy.return %2 : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
