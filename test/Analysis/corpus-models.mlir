// Every corpus model: the NDA runs and its JSON report is valid and
// self-consistent (every dimension in exactly one color, ...).
// REQUIRES: corpus
// RUN: toast-opt %corpus/models/pt_bert.mlir --toast-nda=json=%t.bert.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.bert.json | FileCheck %s
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --toast-nda=json=%t.chess.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.chess.json | FileCheck %s
// RUN: toast-opt %corpus/models/jax_resnet_50.mlir --toast-nda=json=%t.resnet.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.resnet.json | FileCheck %s
// RUN: toast-opt %corpus/models/kan1.mlir --toast-nda=json=%t.kan1.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.kan1.json | FileCheck %s
// RUN: toast-opt %corpus/models/kan2.mlir --toast-nda=json=%t.kan2.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.kan2.json | FileCheck %s
// CHECK: OK names=
