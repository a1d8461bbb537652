func.func @main() {
  %a = stablehlo.constant dense<[1, 2> : tensor<2xi32>
  return
}
