// SPMD differential tests of the schedule tests of test/Partition (the
// cases of test/Partition/differential.mlir, which checks their PartIR:Core
// form): each partitioned program is lowered to device-local PartIR:HLO
// without and with collective optimization and exported to StableHLO with
// collectives, run on one simulated device per mesh coordinate, and
// compared with the original on the same random arguments.
//
// Figure 4's sum equivalence (tiling a contraction dimension):
// RUN: toast-opt %S/../Partition/figure4-equivalences.mlir --partir-tile="value=x dim=1 axis=B" --partir-propagate --partir-materialize-core -o %t.sum.core.mlir
// RUN: toast-opt %t.sum.core.mlir --partir-lower-to-hlo=optimize=false -o %t.sum.hlo.mlir
// RUN: toast-run --compare %S/../Partition/figure4-equivalences.mlir %t.sum.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.sum.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.sum.opt.mlir
// RUN: toast-run --compare %S/../Partition/figure4-equivalences.mlir %t.sum.opt.mlir | FileCheck %s
// RUN: toast-opt %t.sum.opt.mlir --partir-export-stablehlo -o %t.sum.exp.mlir
// RUN: toast-run --compare %S/../Partition/figure4-equivalences.mlir %t.sum.exp.mlir | FileCheck %s
//
// The conflict case (incremental tiling):
// RUN: toast-opt %S/../Partition/conflicts.mlir --partir-tile="value=x dim=0 axis=B" --partir-propagate --partir-tile="value=w1 dim=1 axis=B" --partir-propagate --partir-materialize-core -o %t.incr.core.mlir
// RUN: toast-opt %t.incr.core.mlir --partir-lower-to-hlo=optimize=false -o %t.incr.hlo.mlir
// RUN: toast-run --compare %S/../Partition/conflicts.mlir %t.incr.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.incr.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.incr.opt.mlir
// RUN: toast-run --compare %S/../Partition/conflicts.mlir %t.incr.opt.mlir | FileCheck %s
// RUN: toast-opt %t.incr.opt.mlir --partir-export-stablehlo -o %t.incr.exp.mlir
// RUN: toast-run --compare %S/../Partition/conflicts.mlir %t.incr.exp.mlir | FileCheck %s
//
// The transpose corner case:
// RUN: toast-opt %S/../Partition/transpose-corner-case.mlir --partir-atomic="value=transposed axis=M" --partir-manual-partition="axis=M inputs=x=0" --partir-materialize-core -o %t.tr.core.mlir
// RUN: toast-opt %t.tr.core.mlir --partir-lower-to-hlo=optimize=false -o %t.tr.hlo.mlir
// RUN: toast-run --compare %S/../Partition/transpose-corner-case.mlir %t.tr.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.tr.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.tr.opt.mlir
// RUN: toast-run --compare %S/../Partition/transpose-corner-case.mlir %t.tr.opt.mlir | FileCheck %s
// RUN: toast-opt %t.tr.opt.mlir --partir-export-stablehlo -o %t.tr.exp.mlir
// RUN: toast-run --compare %S/../Partition/transpose-corner-case.mlir %t.tr.exp.mlir | FileCheck %s
//
// Deep tiling (one dimension over two axes):
// RUN: toast-opt %S/../Partition/deep-tiling.mlir --partir-tile="value=x dim=1 axis=a" --partir-propagate --partir-tile="value=x dim=1 axis=b" --partir-propagate --partir-materialize-core -o %t.deep.core.mlir
// RUN: toast-opt %t.deep.core.mlir --partir-lower-to-hlo=optimize=false -o %t.deep.hlo.mlir
// RUN: toast-run --compare %S/../Partition/deep-tiling.mlir %t.deep.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.deep.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.deep.opt.mlir
// RUN: toast-run --compare %S/../Partition/deep-tiling.mlir %t.deep.opt.mlir | FileCheck %s
// RUN: toast-opt %t.deep.opt.mlir --partir-export-stablehlo -o %t.deep.exp.mlir
// RUN: toast-run --compare %S/../Partition/deep-tiling.mlir %t.deep.exp.mlir | FileCheck %s
//
// The multi-axis nest on the 3x2 mesh:
// RUN: toast-opt %S/../Partition/multi-axis.mlir --partir-manual-partition="name=rows axis=a inputs=x=0" --partir-manual-partition="name=cols axis=b inputs=x=1" --partir-materialize-core -o %t.multi.core.mlir
// RUN: toast-opt %t.multi.core.mlir --partir-lower-to-hlo=optimize=false -o %t.multi.hlo.mlir
// RUN: toast-run --compare %S/../Partition/multi-axis.mlir %t.multi.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.multi.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.multi.opt.mlir
// RUN: toast-run --compare %S/../Partition/multi-axis.mlir %t.multi.opt.mlir | FileCheck %s
// RUN: toast-opt %t.multi.opt.mlir --partir-export-stablehlo -o %t.multi.exp.mlir
// RUN: toast-run --compare %S/../Partition/multi-axis.mlir %t.multi.exp.mlir | FileCheck %s
//
// A schedule through inlined calls:
// RUN: toast-opt %S/../Partition/inline-calls.mlir --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=2" --partir-materialize-core -o %t.inl.core.mlir
// RUN: toast-opt %t.inl.core.mlir --partir-lower-to-hlo=optimize=false -o %t.inl.hlo.mlir
// RUN: toast-run --compare %S/../Partition/inline-calls.mlir %t.inl.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.inl.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.inl.opt.mlir
// RUN: toast-run --compare %S/../Partition/inline-calls.mlir %t.inl.opt.mlir | FileCheck %s
// RUN: toast-opt %t.inl.opt.mlir --partir-export-stablehlo -o %t.inl.exp.mlir
// RUN: toast-run --compare %S/../Partition/inline-calls.mlir %t.inl.exp.mlir | FileCheck %s
//
// Backward propagation (one loop holds both matmuls, Listing 8):
// RUN: toast-opt %S/../Partition/backward-propagation.mlir --partir-tile="value=x1 dim=0 axis=B" --partir-propagate --partir-materialize-core -o %t.bwd.core.mlir
// RUN: toast-opt %t.bwd.core.mlir --partir-lower-to-hlo=optimize=false -o %t.bwd.hlo.mlir
// RUN: toast-run --compare %S/../Partition/backward-propagation.mlir %t.bwd.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.bwd.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.bwd.opt.mlir
// RUN: toast-run --compare %S/../Partition/backward-propagation.mlir %t.bwd.opt.mlir | FileCheck %s
// RUN: toast-opt %t.bwd.opt.mlir --partir-export-stablehlo -o %t.bwd.exp.mlir
// RUN: toast-run --compare %S/../Partition/backward-propagation.mlir %t.bwd.exp.mlir | FileCheck %s
//
// The flat fallback of deep tiling:
// RUN: toast-opt %S/../Partition/deep-tiling-flat-fallback.mlir --partir-tile="value=y dim=1 axis=M" --partir-propagate --partir-tile="value=x dim=1 axis=B" --partir-propagate --partir-materialize-core -o %t.flat.core.mlir
// RUN: toast-opt %t.flat.core.mlir --partir-lower-to-hlo=optimize=false -o %t.flat.hlo.mlir
// RUN: toast-run --compare %S/../Partition/deep-tiling-flat-fallback.mlir %t.flat.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.flat.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat.opt.mlir
// RUN: toast-run --compare %S/../Partition/deep-tiling-flat-fallback.mlir %t.flat.opt.mlir | FileCheck %s
// RUN: toast-opt %t.flat.opt.mlir --partir-export-stablehlo -o %t.flat.exp.mlir
// RUN: toast-run --compare %S/../Partition/deep-tiling-flat-fallback.mlir %t.flat.exp.mlir | FileCheck %s

// CHECK: @main runs SPMD on {{[0-9]+}} devices
// CHECK: results agree
