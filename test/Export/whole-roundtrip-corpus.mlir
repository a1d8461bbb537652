// Whole-strategy round trip (see whole-roundtrip-schedules.mlir) for the
// test schedules on corpus models.
// REQUIRES: corpus
//
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule="file=%S/../Partition/Inputs/all-args-2x3.json materialize=false" -o %t.kan1-all-args-2x3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.kan1-all-args-2x3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule="file=%S/../Partition/Inputs/first-divisible-x2.json materialize=false" -o %t.kan1-first-divisible-x2.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.kan1-first-divisible-x2.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule="file=%S/../Simulator/Inputs/bp-arg0-x4.json materialize=false" -o %t.kan1-bp-arg0-x4.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.kan1-bp-arg0-x4.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule="file=%S/../Partition/Inputs/all-args-2x3.json materialize=false" -o %t.kan2-all-args-2x3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.kan2-all-args-2x3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule="file=%S/../Simulator/Inputs/bp-arg0-x2.json materialize=false" -o %t.kan2-bp-arg0-x2.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.kan2-bp-arg0-x2.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule="file=%S/../Partition/Inputs/all-args-2x3.json materialize=false" -o %t.searchless_chess_9m-all-args-2x3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.searchless_chess_9m-all-args-2x3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule="file=%S/../Simulator/Inputs/bp-chess-x3.json materialize=false" -o %t.searchless_chess_9m-bp-chess-x3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.searchless_chess_9m-bp-chess-x3.state.mlir sdy mhlo both | FileCheck %s

// CHECK-NOT: MISMATCH
// CHECK: ok sdy
// CHECK-NEXT: ok mhlo
// CHECK-NEXT: ok both
