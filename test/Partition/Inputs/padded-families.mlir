// Every op family over dimensions that 4 devices do not divide (10 rows,
// 6 columns, 7 table rows): test/Partition/padded.mlir tiles each input.
module @families {
  func.func public @main(%x: tensor<10x6xf32> {partir.name = "x"}, %w: tensor<6x5xf32> {partir.name = "w"},
                         %idx: tensor<10x1xi32> {partir.name = "idx"}, %tab: tensor<7x6xf32> {partir.name = "tab"},
                         %i: tensor<i32> {partir.name = "i"})
      -> (tensor<10x6xf32>, tensor<6xf32>, tensor<10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<10x5xf32>,
          tensor<10x6xf32>, tensor<20x6xf32>, tensor<10x4xf32>, tensor<10x2xf32>, tensor<6xi32>, tensor<7x6xf32>) {
    %e = stablehlo.tanh %x : tensor<10x6xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<10x6xf32>, tensor<f32>) -> tensor<6xf32>
    %max = stablehlo.reduce(%e init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<10x6xf32>, tensor<f32>) -> tensor<10xf32>
    %min = stablehlo.reduce(%e init: %pinf) applies stablehlo.minimum across dimensions = [0] : (tensor<10x6xf32>, tensor<f32>) -> tensor<6xf32>
    %prod = stablehlo.reduce(%e init: %one) applies stablehlo.multiply across dimensions = [0] : (tensor<10x6xf32>, tensor<f32>) -> tensor<6xf32>
    %dot = stablehlo.dot_general %e, %w, contracting_dims = [1] x [0] : (tensor<10x6xf32>, tensor<6x5xf32>) -> tensor<10x5xf32>
    %g = "stablehlo.gather"(%tab, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>} : (tensor<7x6xf32>, tensor<10x1xi32>) -> tensor<10x6xf32>
    %cat = stablehlo.concatenate %e, %g, dim = 0 : (tensor<10x6xf32>, tensor<10x6xf32>) -> tensor<20x6xf32>
    %sl = stablehlo.slice %e [0:10, 1:5] : (tensor<10x6xf32>) -> tensor<10x4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %ds = stablehlo.dynamic_slice %e, %c0, %i, sizes = [10, 2] : (tensor<10x6xf32>, tensor<i32>, tensor<i32>) -> tensor<10x2xf32>
    %iota = stablehlo.iota dim = 0 : tensor<10x6xi32>
    %imin = stablehlo.constant dense<-2147483648> : tensor<i32>
    %am:2 = stablehlo.reduce(%e init: %ninf), (%iota init: %c0) across dimensions = [0] : (tensor<10x6xf32>, tensor<10x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
      reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
        %gt = stablehlo.compare GT, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %v = stablehlo.select %gt, %a, %c : tensor<i1>, tensor<f32>
        %k = stablehlo.select %gt, %b, %d : tensor<i1>, tensor<i32>
        stablehlo.return %v, %k : tensor<f32>, tensor<i32>
      }
    %upd = stablehlo.constant dense<1.0> : tensor<10x6xf32>
    %sc = "stablehlo.scatter"(%tab, %idx, %e) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<7x6xf32>, tensor<10x1xi32>, tensor<10x6xf32>) -> tensor<7x6xf32>
    return %e, %sum, %max, %min, %prod, %dot, %g, %cat, %sl, %ds, %am#1, %sc : tensor<10x6xf32>, tensor<6xf32>, tensor<10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<10x5xf32>, tensor<10x6xf32>, tensor<20x6xf32>, tensor<10x4xf32>, tensor<10x2xf32>, tensor<6xi32>, tensor<7x6xf32>
  }
}
