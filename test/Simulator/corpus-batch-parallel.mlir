// Batch parallelism on the corpus models divides the compute time by the
// number of devices. The batch input is not arg0 in every model: pt_bert
// and jax_resnet_50 have batch 1 (nothing to split); kan1 and kan2 take a
// batch of 100 in arg0 (split over 2 and 4 devices); searchless_chess_9m
// takes 33 boards in arg94 (split over 3 devices). Contractions dominate
// the default cost model and no collective is needed, so RT = 1/n exactly
// (to 11 significant digits: the baseline is read back from its JSON,
// which keeps 12). unittests/Simulator checks the activation
// memory too.
// REQUIRES: corpus
//
// RUN: toast-opt %corpus/models/kan1.mlir --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.kan1.json summary=false" -o /dev/null
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/Inputs/bp-arg0-x2.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 baseline=%t.kan1.json json=%t.kan1.x2.json summary=false" -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=X2 < %t.kan1.x2.json
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/Inputs/bp-arg0-x4.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 baseline=%t.kan1.json json=%t.kan1.x4.json summary=false" -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=X4 < %t.kan1.x4.json
//
// RUN: toast-opt %corpus/models/kan2.mlir --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.kan2.json summary=false" -o /dev/null
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/Inputs/bp-arg0-x2.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 baseline=%t.kan2.json json=%t.kan2.x2.json summary=false" -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=X2 < %t.kan2.x2.json
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/Inputs/bp-arg0-x4.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 baseline=%t.kan2.json json=%t.kan2.x4.json summary=false" -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=X4 < %t.kan2.x4.json
//
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.chess.json summary=false" -o /dev/null
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule=file=%S/Inputs/bp-chess-x3.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 baseline=%t.chess.json json=%t.chess.x3.json summary=false" -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=X3 < %t.chess.x3.json

// X2:      "comm_time_s": 0,
// X2:      "collectives": {
// X2-NEXT:   "all_gather": 0,
// X2-NEXT:   "all_reduce": 0,
// X2-NEXT:   "reduce_scatter": 0,
// X2-NEXT:   "all_to_all": 0,
// X2:      "relative_cost": {
// X2-NEXT:   "rt": {{0\.(5|49999999999[0-9]|50000000000[0-9])}},

// X4:      "comm_time_s": 0,
// X4:      "relative_cost": {
// X4-NEXT:   "rt": {{0\.(25|24999999999[0-9]|25000000000[0-9])}},

// X3:      "comm_time_s": 0,
// X3:      "relative_cost": {
// X3-NEXT:   "rt": {{0\.33333333333[0-9]}},
