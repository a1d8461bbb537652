// Padded slices of one use do not merge (docs/search.md, "Padded states"):
// lowering leaves each in the body of its loop level, and a loop level's
// body slices every operand before the next level's loop runs. When an op
// reads an operand sliced at an outer level after another operand sliced
// at an inner one (here the attention's dot_generals of the padded t32,
// batch 3 and sequence 5 on {B:4, M:2}), the lowered program interleaves
// the two operands' slices level by level. The pricer and the planned
// emitter read such an op's inputs level by level too
// (CollectivePlan::levelOrdered) instead of leaving the state to the
// reference path: every state the search prices analytically here,
// those included, equals the reference path's price to 1e-9. The planned
// programs of such states run as the original
// (PaddedPlannedProgramsSimulateToTheAnalyticPrice).
//
// RUN: toast-models t32 --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 --key-size 4 --vocab 30 --hidden 20 --quiet -o %t.mlir
// RUN: env TOAST_UNMODELED_WHY=1 TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 rollouts=100 budget-s=0 threads=1 seed=3 materialize=false" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=check-analytic

// CHECK: padded reader read level by level (op 622)
// CHECK: padded reader read level by level (op 450)
// CHECK: mcts chose
