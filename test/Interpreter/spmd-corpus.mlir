// SPMD differential tests of corpus models (the schedules of
// test/Partition/differential-corpus.mlir and test/Export/corpus-models.mlir):
// lowered to PartIR:HLO without and with collective optimization and
// exported to StableHLO, run on one simulated device per mesh coordinate.
// REQUIRES: corpus
//
// Every argument split over X then Y of the mesh {X:2, Y:3} (6 devices):
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/../Partition/Inputs/all-args-2x3.json -o %t.kan1.core.mlir 2>/dev/null
// RUN: toast-opt %t.kan1.core.mlir --partir-lower-to-hlo=optimize=false -o %t.kan1.hlo.mlir
// RUN: toast-run --compare %corpus/models/kan1.mlir %t.kan1.hlo.mlir | FileCheck %s --check-prefixes=CHECK,SIX
// RUN: toast-opt %t.kan1.core.mlir --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo -o %t.kan1.exp.mlir
// RUN: toast-run --compare %corpus/models/kan1.mlir %t.kan1.exp.mlir | FileCheck %s --check-prefixes=CHECK,SIX
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/../Partition/Inputs/all-args-2x3.json -o %t.kan2.core.mlir 2>/dev/null
// RUN: toast-opt %t.kan2.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.kan2.opt.mlir
// RUN: toast-run --compare %corpus/models/kan2.mlir %t.kan2.opt.mlir | FileCheck %s --check-prefixes=CHECK,SIX
// RUN: toast-opt %t.kan2.opt.mlir --partir-export-stablehlo -o %t.kan2.exp.mlir
// RUN: toast-run --compare %corpus/models/kan2.mlir %t.kan2.exp.mlir | FileCheck %s --check-prefixes=CHECK,SIX
// The 9M-parameter chess transformer, exported (about 45 s: 6 devices).
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule=file=%S/../Partition/Inputs/all-args-2x3.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo -o %t.chess.exp.mlir 2>/dev/null
// RUN: toast-run --compare %corpus/models/searchless_chess_9m.mlir %t.chess.exp.mlir | FileCheck %s --check-prefixes=CHECK,SIX
//
// The first divisible dimension of the first argument over {X:2}:
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.kan1.x2.mlir 2>/dev/null
// RUN: toast-run --compare %corpus/models/kan1.mlir %t.kan1.x2.mlir | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: toast-opt %t.kan1.x2.mlir --partir-export-stablehlo -o %t.kan1.x2.exp.mlir
// RUN: toast-run --compare %corpus/models/kan1.mlir %t.kan1.x2.exp.mlir | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/../Partition/Inputs/first-divisible-x2.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo -o %t.kan2.x2.exp.mlir 2>/dev/null
// RUN: toast-run --compare %corpus/models/kan2.mlir %t.kan2.x2.exp.mlir | FileCheck %s --check-prefixes=CHECK,TWO

// SIX: @main runs SPMD on 6 devices
// TWO: @main runs SPMD on 2 devices
// CHECK-NOT: MISMATCH
// CHECK: results agree
