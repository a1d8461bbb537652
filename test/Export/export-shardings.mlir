// --partir-export-shardings: the global matmul chain annotated with the
// shardings BP, BP+MP and BP+MP+Z3 give its arguments and results (and,
// with the default scope=all, its ops and reshards) on the mesh {B:4, M:2},
// as XLA HloSharding strings and as Shardy attributes.
// The annotated programs re-parse and verify.
//
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp.json materialize=false" --partir-export-shardings | toast-opt | FileCheck %s --check-prefix=BP
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp.json materialize=false" --partir-export-shardings | toast-opt | FileCheck %s --check-prefix=MP
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings | toast-opt | FileCheck %s --check-prefix=Z3
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings=format=mhlo | FileCheck %s --check-prefix=MHLO
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings="format=sdy mesh-name=devices" | FileCheck %s --check-prefix=SDY
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings=scope=boundary | FileCheck %s --check-prefix=BOUNDARY
// The same with one tactic pass per tactic.
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4,M=2" --partir-manual-partition="name=MP axis=M inputs=w1=1" --partir-manual-partition="name=Z3 axis=B inputs=w1=0;w2=1" --partir-export-shardings | FileCheck %s --check-prefix=Z3

// BP: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// BP-NEXT: sdy.mesh @mesh = <["B"=4, "M"=2]>
// BP-LABEL: func.func @main
// BP-SAME: (%{{.*}}: tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", partir.name = "x", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>},
// BP-SAME: %{{.*}}: tensor<8x16xf32> {mhlo.sharding = "{replicated}", partir.name = "w1", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
// BP-SAME: %{{.*}}: tensor<16x8xf32> {mhlo.sharding = "{replicated}", partir.name = "w2", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
// BP-SAME: -> (tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>})
// BP-NOT: partir.
// BP: return

// MP-LABEL: func.func @main
// MP-SAME: tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", partir.name = "x", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>},
// MP-SAME: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}", partir.name = "w1", sdy.sharding = #sdy.sharding<@mesh, [{}, {"M"}]>},
// MP-SAME: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}", partir.name = "w2", sdy.sharding = #sdy.sharding<@mesh, [{"M"}, {}]>})
// MP-SAME: -> (tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>})

// Z3: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// Z3-NEXT: sdy.mesh @mesh = <["B"=4, "M"=2]>
// Z3-LABEL: func.func @main
// Z3-SAME: tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", partir.name = "x", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>},
// Z3-SAME: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}", partir.name = "w1", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {"M"}]>},
// Z3-SAME: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}", partir.name = "w2", sdy.sharding = #sdy.sharding<@mesh, [{"M"}, {"B"}]>})
// Z3-SAME: -> (tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>})
// The whole strategy (scope=all): each op's sharding, and a constraint
// where a dot reads a weight in another layout than the argument's (Z3
// keeps the weights sharded on B; the dots gather them).
// Z3-NEXT: %[[W1:.*]] = stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}
// Z3-NEXT: %[[H:.*]] = stablehlo.dot_general %arg0, %[[W1]], {{.*}} {mhlo.sharding = "{devices=[4,2]<=[8]}", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"B"}, {"M"}]>]>}
// Z3-NOT: partir.
// Z3-NEXT: %[[W2:.*]] = stablehlo.custom_call @Sharding(%arg2) {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}
// Z3-NEXT: stablehlo.dot_general %[[H]], %[[W2]], {{.*}} {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"B"}, {}]>]>}
// Z3-NOT: partir.
// Z3-NEXT: return

// BOUNDARY-LABEL: func.func @main
// BOUNDARY-SAME: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}", partir.name = "w1", sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {"M"}]>},
// BOUNDARY-NEXT: stablehlo.dot_general %arg0, %arg1
// BOUNDARY-NOT: sharding
// BOUNDARY-NEXT: stablehlo.dot_general
// BOUNDARY-NOT: sharding
// BOUNDARY-NEXT: return

// MHLO-NOT: sdy
// MHLO: mhlo.sharding = "{devices=[4,2]<=[8]}"
// MHLO-NOT: sdy

// SDY: sdy.mesh @devices = <["B"=4, "M"=2]>
// SDY-NOT: mhlo.sharding
// SDY: sdy.sharding = #sdy.sharding<@devices, [{"B"}, {"M"}]>
// SDY-NOT: mhlo.sharding
// SDY: sdy.sharding_constraint %arg1 <@devices, [{}, {"M"}]>
// SDY-NOT: mhlo.sharding

// Loops: the while op carries its tied classes' shardings, body ops theirs.
// RUN: toast-opt %S/../Partition/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=4" --partir-export-shardings=format=sdy | FileCheck %s --check-prefix=LOOP
// LOOP: stablehlo.while
// LOOP-SAME: attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"B"}, {}]>, <@mesh, [{}, {}, {}]>, <@mesh, [{}, {}, {}]>]>}
// LOOP: } do {
// LOOP: stablehlo.dot_general %iterArg_0, %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"B"}, {}]>]>}
// LOOP: stablehlo.return
