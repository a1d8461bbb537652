// Sub-axes at shard_map boundaries (`{"x":(1)2}`, as Shardy writes them
// after a reshape): the import splits each mesh axis where the shardings'
// sub-axes cut it ("x"=4 becomes the pieces "x:(1)2" and "x:(2)2" of the
// partitioning mesh, same device numbering), rewrites the regions onto the
// pieces, and the export joins the pieces back into the user's sub-axes.
// RUN: split-file %s %t
// RUN: toast-opt %t/manual.mlir --partir-import-shardings | FileCheck %s --check-prefix=IMPORT
// RUN: toast-opt %t/manual.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/manual-hlo.mlir
// RUN: FileCheck %s --check-prefix=HLO --input-file=%t/manual-hlo.mlir
// RUN: toast-run --compare %t/manual.mlir %t/manual-hlo.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/manual-hlo.mlir --partir-export-stablehlo -o %t/manual-shlo.mlir
// RUN: not grep -E "sdy\.|custom_call" %t/manual-shlo.mlir
// RUN: toast-run --compare %t/manual.mlir %t/manual-shlo.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/manual.mlir --partir-import-shardings --partir-export-shardings=format=sdy -o %t/manual-out.mlir
// RUN: FileCheck %s --check-prefix=EXPORT --input-file=%t/manual-out.mlir
// RUN: toast-opt %t/manual-out.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo | diff - %t/manual-hlo.mlir
// RUN: toast-opt %t/free.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/free-hlo.mlir
// RUN: FileCheck %s --check-prefix=FREE --input-file=%t/free-hlo.mlir
// RUN: toast-run --compare %t/free.mlir %t/free-hlo.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/free-hlo.mlir --partir-export-stablehlo -o %t/free-shlo.mlir
// RUN: toast-run --compare %t/free.mlir %t/free-shlo.mlir --seed 4 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/free.mlir --partir-import-shardings --partir-export-shardings=format=sdy -o %t/free-out.mlir
// RUN: FileCheck %s --check-prefix=FREE-EXPORT --input-file=%t/free-out.mlir
// RUN: toast-opt %t/free-out.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo | diff - %t/free-hlo.mlir
// RUN: toast-opt %t/free.mlir --partir-import-shardings --partir-export-shardings=format=mhlo -o %t/free-mhlo.mlir
// RUN: FileCheck %s --check-prefix=FREE-MHLO --input-file=%t/free-mhlo.mlir
// RUN: toast-opt %t/free-mhlo.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo | diff - %t/free-hlo.mlir
// RUN: toast-opt %t/free.mlir --partir-import-shardings --partir-export-shardings=format=both | toast-opt --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo | diff - %t/free-hlo.mlir

// AGREE: results agree

// IMPORT: partir.mesh = #partir.mesh<["x:(1)2"=2, "x:(2)2"=2, "y"=2]>
// IMPORT: sdy.mesh @mesh = <["x"=4, "y"=2]>
// IMPORT: func.func public @main(%arg0: tensor<8x6xf32> {partir.atomic = ["x:(2)2", "y"], partir.tiling = ["x:(1)2:0"]})
// IMPORT: sdy.manual_computation(%{{.*}}) in_shardings=[<mesh<["x:(1)2"=2, "x:(2)2"=2, "y"=2]>, [{"x:(1)2"}, {}]>] out_shardings=[<mesh<["x:(1)2"=2, "x:(2)2"=2, "y"=2]>, [{"x:(1)2"}, {}]>] manual_axes={"x:(1)2", "x:(2)2"}

// The region's layout is the argument's: no communication at all.
// HLO: func.func public @main(%arg0: tensor<4x6xf32> {partir.sharding = {{\[\["x:\(1\)2"\], \[\]\]}}}) -> (tensor<4x6xf32> {jax.result_info = "result", partir.sharding = {{\[\["x:\(1\)2"\], \[\]\]}}})
// HLO-NOT: partir_hlo
// HLO: stablehlo.exponential
// HLO-NOT: partir_hlo
// HLO: return

// EXPORT: sdy.mesh @mesh = <["x"=4, "y"=2]>
// EXPORT: func.func public @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>})
// EXPORT: stablehlo.multiply {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {}], replicated={"x":(2)2, "y"}>]>
// EXPORT: sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x":(1)2}, {}]>] out_shardings=[<@mesh, [{"x":(1)2}, {}]>] manual_axes={"x"}

// The free sub-axis "x":(1)2 crosses the boundary: the body's tanh runs on
// rows split on it; the body's all_reduce (over the manual axis "y") is
// opaque, so its operand is gathered on "x":(1)2 and sliced again after.
// FREE: func.func public @main(%arg0: tensor<4x8xf32> {partir.sharding = {{\[\["y", "x:\(1\)2"\], \[\]\]}}}, %arg1: tensor<8x1xf32> {partir.sharding = {{\[\[\], \["x:\(1\)2", "x:\(2\)2"\]\]}}})
// FREE: stablehlo.tanh %arg0 : tensor<4x8xf32>
// FREE-NEXT: partir_hlo.all_gather [{"x:(1)2"}, {}]
// FREE-NEXT: "stablehlo.all_reduce"
// FREE: partir_hlo.all_slice [{"x:(1)2"}, {}]
// FREE: stablehlo.dot_general {{.*}} -> tensor<4x2xf32>

// FREE-EXPORT: func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<16x4xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2}, {"x":(2)2}]>})
// FREE-EXPORT: manual_axes={"y"}

// In GSPMD's form, the body's values (manual on "y", the minor device axis)
// carry a manual subgroup; the reshard before the opaque all_reduce is a
// @Sharding the import reads back and removes.
// FREE-MHLO: stablehlo.tanh %arg2 {mhlo.sharding = "{devices=[2,1,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}"}
// FREE-MHLO: stablehlo.custom_call @Sharding(%{{.*}}) {mhlo.sharding = "{devices=[1,1,2,4]<=[4,2]T(1,0) last_tile_dims={manual, replicated}}"}

//--- manual.mlir
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}) -> (tensor<8x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x6xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x":(1)2}, {}]>] out_shardings=[<@mesh, [{"x":(1)2}, {}]>] manual_axes={"x"} (%arg1: tensor<4x6xf32>) {
      %2 = stablehlo.exponential %arg1 : tensor<4x6xf32>
      sdy.return %2 : tensor<4x6xf32>
    } : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %3 = stablehlo.add %1, %1 : tensor<8x6xf32>
    return %3 : tensor<8x6xf32>
  }
}

//--- free.mlir
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<16x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y", "x":(1)2}, {}]>] out_shardings=[<@mesh, [{"y", "x":(1)2}, {}]>] manual_axes={"y"} (%arg2: tensor<8x8xf32>) {
      %1 = stablehlo.tanh %arg2 : tensor<8x8xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      sdy.return %2 : tensor<8x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %3 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    return %3 : tensor<16x4xf32>
  }
}
