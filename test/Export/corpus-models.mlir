// End to end on every corpus model: BP on the first divisible dimension of
// argument 0 over an axis of size 2, lowered to PartIR:HLO, collectives
// optimized, exported to StableHLO. The output has no PartIR left and
// re-parses and verifies.
// REQUIRES: corpus
//
// RUN: toast-opt %corpus/models/pt_bert.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo 2>/dev/null | toast-opt | FileCheck %s --implicit-check-not=partir_hlo --implicit-check-not=partir.loop --implicit-check-not=partir.slice --implicit-check-not=partir.mesh --implicit-check-not=partir.sharding --check-prefixes=CHECK,GATHER
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo 2>/dev/null | toast-opt | FileCheck %s --implicit-check-not=partir_hlo --implicit-check-not=partir.loop --implicit-check-not=partir.slice --implicit-check-not=partir.mesh --implicit-check-not=partir.sharding --check-prefixes=CHECK,GATHER
// RUN: toast-opt %corpus/models/jax_resnet_50.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo 2>/dev/null | toast-opt | FileCheck %s --implicit-check-not=partir_hlo --implicit-check-not=partir.loop --implicit-check-not=partir.slice --implicit-check-not=partir.mesh --implicit-check-not=partir.sharding --check-prefixes=CHECK,GATHER
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo 2>/dev/null | toast-opt | FileCheck %s --implicit-check-not=partir_hlo --implicit-check-not=partir.loop --implicit-check-not=partir.slice --implicit-check-not=partir.mesh --implicit-check-not=partir.sharding --check-prefixes=CHECK,SLICE
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo 2>/dev/null | toast-opt | FileCheck %s --implicit-check-not=partir_hlo --implicit-check-not=partir.loop --implicit-check-not=partir.slice --implicit-check-not=partir.mesh --implicit-check-not=partir.sharding --check-prefixes=CHECK,SLICE

// CHECK: mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32
// CHECK: toast.global_sharding = "{devices=[
// GATHER: "stablehlo.all_gather"
// GATHER-SAME{LITERAL}: replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids
// kan's all_slices all cut splat constants: each device's chunk is the
// smaller splat (export-splat-slices.mlir), so no slice reads partition_id.
// SLICE-NOT: stablehlo.partition_id
// SLICE: stablehlo.constant dense<{{.*}}> : tensor<10x50xf32>

// The same schedule exported as shardings of the global program (after
// importing whatever shardings the model carries), re-parsed.
// RUN: toast-opt %corpus/models/pt_bert.mlir --partir-import-shardings --partir-schedule="file=%S/../Partition/Inputs/first-divisible-x2.json materialize=false" --partir-export-shardings 2>/dev/null | toast-opt | FileCheck %s --check-prefix=SHARD
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-import-shardings --partir-schedule="file=%S/../Partition/Inputs/first-divisible-x2.json materialize=false" --partir-export-shardings 2>/dev/null | toast-opt | FileCheck %s --check-prefix=SHARD
// RUN: toast-opt %corpus/models/jax_resnet_50.mlir --partir-import-shardings --partir-schedule="file=%S/../Partition/Inputs/first-divisible-x2.json materialize=false" --partir-export-shardings 2>/dev/null | toast-opt | FileCheck %s --check-prefix=SHARD
// RUN: toast-opt %corpus/models/kan1.mlir --partir-import-shardings --partir-schedule="file=%S/../Partition/Inputs/first-divisible-x2.json materialize=false" --partir-export-shardings 2>/dev/null | toast-opt | FileCheck %s --check-prefix=SHARD
// RUN: toast-opt %corpus/models/kan2.mlir --partir-import-shardings --partir-schedule="file=%S/../Partition/Inputs/first-divisible-x2.json materialize=false" --partir-export-shardings 2>/dev/null | toast-opt | FileCheck %s --check-prefix=SHARD
// SHARD: mhlo.num_partitions = 2 : i32
// SHARD: sdy.mesh @mesh = <["X"=2]>
// SHARD: mhlo.sharding = "{devices=[{{[12,]*}}]<=[2]}"
// SHARD-SAME: sdy.sharding = #sdy.sharding<@mesh, [{{.*}}{"X"}
