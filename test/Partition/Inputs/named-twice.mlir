// An argument named "x" by two attributes (as JAX writes jax.arg_info and
// a user adds partir.name): test/Partition/bad-input.mlir lists it once.
func.func @main(%a: tensor<8xf32> {jax.arg_info = "x", partir.name = "x"}, %b: tensor<8xf32> {jax.arg_info = "y"}) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}
