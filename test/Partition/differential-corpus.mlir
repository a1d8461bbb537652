// Corpus models with every argument tiled on its first divisible dimension
// over an axis of size 2, then again over an axis of size 3 (a non-power of
// two), compared with the original by the interpreter.
// REQUIRES: corpus
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/Inputs/all-args-2x3.json -o %t.kan1.mlir
// RUN: toast-run --compare %corpus/models/kan1.mlir %t.kan1.mlir | FileCheck %s
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/Inputs/all-args-2x3.json -o %t.kan2.mlir
// RUN: toast-run --compare %corpus/models/kan2.mlir %t.kan2.mlir | FileCheck %s
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule=file=%S/Inputs/all-args-2x3.json -o %t.chess.mlir
// RUN: toast-run --compare %corpus/models/searchless_chess_9m.mlir %t.chess.mlir | FileCheck %s
// CHECK: results agree
