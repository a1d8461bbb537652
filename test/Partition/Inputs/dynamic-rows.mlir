// Two inputs with a dynamic number of rows: test/Partition/bad-input.mlir
// (the rows cannot be tiled) and padded-boundary.mlir (the columns can).
func.func @main(%a: tensor<?x6xf32>, %b: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %0 = stablehlo.add %a, %b : tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}
