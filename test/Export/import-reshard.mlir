// A sharding_constraint, a GSPMD @Sharding call or a result sharding that
// changes a value's layout (`with_sharding_constraint`, `out_shardings` in
// JAX) is a reshard: its readers read a copy (a reshape to the same type)
// that loops over the asked layout, so lowering moves the axis with an
// all_to_all. Before, the import failed ("value is already tiled"), and on
// a dot's result it crashed. Each lowered program computes the original.
// RUN: split-file %s %t
// RUN: toast-opt %t/constraint.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/constraint.hlo.mlir
// RUN: FileCheck %s --check-prefix=CONSTRAINT --input-file=%t/constraint.hlo.mlir
// RUN: toast-run --compare %t/constraint.mlir %t/constraint.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/result.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/result.hlo.mlir
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t/result.hlo.mlir
// RUN: toast-run --compare %t/result.mlir %t/result.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/gspmd.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/gspmd.hlo.mlir
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t/gspmd.hlo.mlir
// RUN: toast-run --compare %t/gspmd.mlir %t/gspmd.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/dot.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/dot.hlo.mlir
// RUN: FileCheck %s --check-prefix=DOT --input-file=%t/dot.hlo.mlir
// RUN: toast-run --compare %t/dot.mlir %t/dot.hlo.mlir | FileCheck %s --check-prefix=AGREE
// Chains and pairs (a review found a use-after-free on constraints read by
// constraints): each lowers and computes the original.
// RUN: toast-opt %t/chain.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/chain.hlo.mlir
// RUN: toast-run --compare %t/chain.mlir %t/chain.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/there-and-back.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/back.hlo.mlir
// RUN: toast-run --compare %t/there-and-back.mlir %t/back.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/two.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/two.hlo.mlir
// RUN: toast-run --compare %t/two.mlir %t/two.hlo.mlir | FileCheck %s --check-prefix=AGREE

// AGREE: results agree

// Rows on y, then columns on y from the constraint on.
// CONSTRAINT: func.func public @main(%arg0: tensor<4x16xf32> {partir.sharding = {{\[\["y"\], \[\]\]}}}) -> (tensor<8x8xf32> {partir.sharding = {{\[\[\], \["y"\]\]}}})
// CONSTRAINT: partir_hlo.all_to_all 0 -> 1 ["y"]
// CONSTRAINT-NOT: all_gather
//--- constraint.mlir
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["y"=2]>
  func.func public @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
    %0 = stablehlo.tanh %x : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %2 = stablehlo.exponential %1 : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}

// RESULT: func.func public @main(%arg0: tensor<4x16xf32> {partir.sharding = {{.*}}}) -> (tensor<8x8xf32> {partir.sharding = {{.*}}})
// RESULT: partir_hlo.all_to_all 0 -> 1
// RESULT-NOT: all_gather
//--- result.mlir
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["y"=2]>
  func.func public @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
    %0 = stablehlo.tanh %x : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

//--- gspmd.mlir
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[1,2]<=[2]}"}) {
    %0 = stablehlo.tanh %x : tensor<8x16xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}

// A dot whose result propagation tiles on columns, constrained to rows.
// DOT: func.func public @main({{.*}}) -> (tensor<4x16xf32> {partir.sharding = {{\[\["y"\], \[\]\]}}})
// DOT-NOT: all_slice
//--- dot.mlir
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["y"=2]>
  func.func public @main(%a: tensor<8x8xf32>, %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}

// A constraint read only by another constraint: the second one decides.
//--- chain.mlir
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["y"=2]>
  func.func public @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
    %0 = stablehlo.tanh %x : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
    %2 = sdy.reshard %1 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %3 = stablehlo.exponential %2 : tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}

// Rows, columns from the constraint on, rows again for the result.
//--- there-and-back.mlir
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["y"=2]>
  func.func public @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
    %0 = stablehlo.tanh %x : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %2 = stablehlo.exponential %1 : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}

// Two constraints of one value, each with its readers.
//--- two.mlir
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.tanh %x : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %2 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {"x"}]> : tensor<8x16xf32>
    %3 = stablehlo.exponential %1 : tensor<8x16xf32>
    %4 = stablehlo.negate %2 : tensor<8x16xf32>
    return %3, %4 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}
