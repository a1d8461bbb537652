// An embedding table of 31 rows (a vocabulary no mesh axis divides), read
// by a lookup, a logits contraction and an elementwise update that is
// returned: test/Partition/padded-boundary.mlir tiles it over two levels.
module @emb {
  func.func public @main(%tab: tensor<31x8xf32> {partir.name = "tab"}, %idx: tensor<6x1xi32> {partir.name = "idx"}, %h: tensor<6x8xf32> {partir.name = "h"})
      -> (tensor<6x8xf32>, tensor<6x31xf32>, tensor<31x8xf32>) {
    %g = "stablehlo.gather"(%tab, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>} : (tensor<31x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
    %logits = stablehlo.dot_general %h, %tab, contracting_dims = [1] x [1] : (tensor<6x8xf32>, tensor<31x8xf32>) -> tensor<6x31xf32>
    %t = stablehlo.tanh %tab : tensor<31x8xf32>
    return %g, %logits, %t : tensor<6x8xf32>, tensor<6x31xf32>, tensor<31x8xf32>
  }
}
