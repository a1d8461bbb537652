// --toast-auto-partition="... schedule-out=FILE" writes the strategy found
// as a schedule of manual tactics over the arguments' names; applying it
// gives the auto pass's device-local program (same ops, local types,
// collectives, step time and peak memory). Where propagation from argument
// tilings cannot rebuild the strategy, intermediate values are pinned; where
// even that does not rebuild it, the pass says so. An unwritable
// path is an error.
//
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=500 budget-s=0 min-dims=2 progress=false schedule-out=%t.found.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=JSON < %t.found.json
// RUN: toast-opt %t.mlp.mlir --partir-schedule=file=%t.found.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.auto.mlir %t.replayed.mlir | FileCheck %s --check-prefix=SAME
//
// RUN: toast-models t32 --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t32.mlir
// Where propagation from the arguments resolves a conflict differently
// (here the attention scores, whose two operands are both sequence-sharded
// on B), the schedule pins intermediate values by position (`#N`), and
// replaying it gives the same device-local program:
// RUN: toast-opt %t.t32.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=2 rollouts=500 budget-s=0 min-dims=2 progress=false schedule-out=%t.t32.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=PINS < %t.t32.json
// RUN: toast-opt %t.t32.mlir --partir-schedule=file=%t.t32.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.t32.auto.mlir %t.t32.replayed.mlir | FileCheck %s --check-prefix=SAME
//
// Where propagation from the arguments' tactics would loop an op over other
// factors, or over its axes in another order, than the search did, the
// schedule asks the op for its loop (`"#N": "operandO:D"`,
// docs/schedules.md; which ops need it depends on the strategy found, so a
// change to the search may need another seed here: benchmarks/
// schedule_replay.py lists the exact cases), and the replay
// gives the search's device-local program, which computes what the
// original does:
// RUN: toast-models t2b --flatten-linear --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.flat.mlir
// RUN: toast-opt %t.flat.mlir --toast-auto-partition="mesh=B=2,S=2,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 min-dims=2 progress=false schedule-out=%t.flat.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=OPSPEC < %t.flat.json
// RUN: toast-opt %t.flat.mlir --partir-schedule=file=%t.flat.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.flat.auto.mlir %t.flat.replayed.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-run --compare %t.flat.mlir %t.flat.replayed.mlir --seed 5 | FileCheck %s --check-prefix=AGREE
//
// The replay is compared value by value as well as op by op: loop nests
// that all agree can still come with an intermediate value tiled beyond its
// producer's nest (a reduce_scatter and all_gather where the search
// all-reduces); the writer counts that. With seed 13 the targets are tiled
// B, S, M on the sequence, and pins on M deep-tile them on M before their
// own S level (B, M, S); the writer places that level (`"1@1"`, a level
// position, docs/schedules.md), and the replay gives the search's
// device-local program:
// RUN: toast-opt %t.flat.mlir --toast-auto-partition="mesh=B=2,S=2,M=2 device=file:%S/Inputs/slow.json seed=13 rollouts=300 budget-s=0 min-dims=2 progress=false schedule-out=%t.flat2.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat2.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=LEVEL < %t.flat2.json
// RUN: toast-opt %t.flat.mlir --partir-schedule=file=%t.flat2.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat2.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.flat2.auto.mlir %t.flat2.replayed.mlir | FileCheck %s --check-prefix=SAME
//
// Where no single repair of an op helps (seed 3: the causal mask's iotas
// and compare, and the broadcast of the mask, loop over other factors on
// M than the search chose, and each alone only moves the conflict), the
// writer pins the op, then the differing ops connected to it, then those
// with their neighbours, each to its whole nest at once: every loop
// requested at its nest position (`"#N": "operand0:1@0"`) and the op kept
// whole on the other axes (`"whole_op"`); the replay gives the search's
// device-local program:
// RUN: toast-opt %t.flat.mlir --toast-auto-partition="mesh=B=2,S=2,M=2 device=file:%S/Inputs/slow.json seed=3 rollouts=300 budget-s=0 min-dims=2 progress=false schedule-out=%t.flat3.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat3.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=GROUP < %t.flat3.json
// RUN: toast-opt %t.flat.mlir --partir-schedule=file=%t.flat3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.flat3.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.flat3.auto.mlir %t.flat3.replayed.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-run --compare %t.flat.mlir %t.flat3.replayed.mlir --seed 5 | FileCheck %s --check-prefix=AGREE
//
// On {B:2,S:2,M:2} (seed 1) the search puts the attention scores and the
// causal mask on the query rows over all three axes, where propagation
// picks the key columns: requests for several loops of one op on one
// factor used to be refused ("cannot loop over factor 2 of size 8 in 32
// tiles": satisfied requests were counted twice), and 54 ops and values
// differed; the replay now gives the search's device-local program:
// RUN: toast-opt %t.t32.mlir --toast-auto-partition="mesh=B=2,S=2,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 min-dims=2 progress=false schedule-out=%t.t32g.json" --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32g.auto.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: toast-opt %t.t32.mlir --partir-schedule=file=%t.t32g.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32g.replayed.mlir
// RUN: %python %S/../Export/Inputs/whole_roundtrip.py toast-opt --compare %t.t32g.auto.mlir %t.t32g.replayed.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-run --compare %t.t32.mlir %t.t32g.replayed.mlir --seed 5 | FileCheck %s --check-prefix=AGREE
//
// The schedule holds the whole state, tactics before the search included.
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=arg0=0;arg1=1;arg2=0 mesh=B=2,M=2" --toast-auto-partition="axes=M progress=false rollouts=10 schedule-out=%t.names.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=NAMES < %t.names.json
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=2 progress=false rollouts=10 schedule-out=%t.missing/dir/found.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// A write that fails (a full device) is a located error, not an abort.
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=2 progress=false rollouts=10 schedule-out=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL

// QUIET-NOT: schedule-out
// JSON: "mesh": {
// JSON-NEXT: "B": 4,
// JSON-NEXT: "M": 2
// JSON: "kind": "manual",
// JSON: "params.layer_0.w": 1,
// SAME: ok compare
// OPSPEC: "#{{[0-9]+}}": "operand{{[0-9]}}:{{[0-9]}}{{(@[0-9])?}}"
// AGREE: results agree
// PINS: "kind": "manual",
// PINS: "#{{[0-9]+}}": {{[0-9]}}
// GROUP: "#{{[0-9]+}}": "whole_op"
// GROUP: "#{{[0-9]+}}": "{{operand|result}}{{[0-9]}}:{{[0-9]}}@1"
// LEVEL: "batch.targets": "1@1"

// JAX names; a name two arguments share falls back to the position.
// NAMES: "inputs": {
// NAMES-DAG: "x['batch']": 0
// NAMES-DAG: "arg1": 1
// NAMES-DAG: "arg2": 0
// NAMES: }
// ERR: error: --toast-auto-partition: cannot write schedule-out file '{{.*}}found.json': {{.*}}
// FULL: schedule-out.mlir:{{[0-9]+}}:{{[0-9]+}}: error: --toast-auto-partition: cannot write schedule-out file '/dev/full': {{.+}}
// FULL-NOT: LLVM ERROR

func.func @main(%x: tensor<64x32xf32> {jax.arg_info = "x['batch']"},
                %w1: tensor<32x64xf32> {jax.arg_info = "w"},
                %w2: tensor<64x32xf32> {jax.arg_info = "w"}) -> (tensor<64x32xf32> {jax.result_info = "y"}) {
  %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  %1 = stablehlo.dot_general %0, %w2, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}
