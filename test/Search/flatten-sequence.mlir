// Sequence sharding through flattening reshapes (issue 18). After the
// batch action (B, 2 of 2 rows), the sequence action shards S on M
// everywhere, including the S part of every flattened (B*S) dim: the
// flattens, the linear layers and the unflattens run on each device's
// rows with no collective (no all_gather feeds a reshape, no all_to_all),
// and the result computes what the original computes, in PartIR:Core and
// after lowering.
//
// A linear layer between a flatten, an unflatten and a head split:
// RUN: toast-opt %S/Inputs/flatten-layer.mlir --toast-test-apply-nda-action="mesh=B=2,M=2 before=0:0:B arg=0 dim=1 axis=M" --partir-materialize-core -o %t.layer.mlir 2>&1 | FileCheck %s --check-prefix=LAYER
// RUN: toast-run --compare %S/Inputs/flatten-layer.mlir %t.layer.mlir --entry layer | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.layer.mlir --partir-lower-to-hlo -o %t.layer.hlo.mlir
// RUN: FileCheck %s --check-prefix=LOCAL < %t.layer.hlo.mlir
// RUN: toast-run --compare %S/Inputs/flatten-layer.mlir %t.layer.hlo.mlir --entry layer | FileCheck %s --check-prefix=AGREE
//
// A tiny transformer training step written the PyTorch way (arg 28 is
// batch.tokens [B, S]):
// RUN: toast-models t2b --flatten-linear --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --toast-test-apply-nda-action="mesh=B=2,M=2 before=28:0:B arg=28 dim=1 axis=M" --partir-materialize-core -o %t.sp.mlir 2>&1 | FileCheck %s --check-prefix=T2B
// RUN: toast-opt %t.sp.mlir --partir-lower-to-hlo -o %t.sp.hlo.mlir
// RUN: %python %S/../Models/Inputs/gathers_at_reshapes.py < %t.sp.hlo.mlir | FileCheck %s --check-prefix=NOGATHER
// RUN: toast-run --compare %t.t2b.mlir %t.sp.hlo.mlir | FileCheck %s --check-prefix=AGREE

// LAYER: remark: shard color {{[0-9]+}} (arg0[0]: {{[0-9]+}} dims) on axis B
// LAYER: remark: shard color {{[0-9]+}} (arg0[1]: {{[0-9]+}} dims) on axis M
// LAYER: remark: analytic: all_gather 0 all_reduce 0 reduce_scatter 0 all_to_all 0

// LOCAL: func.func @layer(%arg0: tensor<1x2x8xf32> {partir.sharding = {{\[\["B"\], \["M"\], \[\]\]}}}
// LOCAL-NOT: partir_hlo.
// LOCAL: stablehlo.reshape {{.*}} : (tensor<1x2x8xf32>) -> tensor<2x8xf32>
// LOCAL-NOT: partir_hlo.
// LOCAL: return {{.*}} : tensor<1x2x4x4xf32>

// T2B: remark: shard color {{[0-9]+}} (batch.tokens[0]: {{[0-9]+}} dims) on axis B
// T2B: remark: shard color {{[0-9]+}} (batch.tokens[1]: {{[0-9]+}} dims) {{.*}}on axis M
// T2B: remark: analytic: all_gather {{[0-9]+}} all_reduce {{[0-9]+}} reduce_scatter {{[0-9]+}} all_to_all 0

// NOGATHER: gathers-at-reshapes=0 all_to_all=0
// AGREE: results agree
