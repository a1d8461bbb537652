// Repeated layers: the transformer training step with 2, 4 and 8 layers
// has the same number of independent resolution bits, and the parameters
// (and optimizer states) of corresponding layers are grouped. Sets: one per
// layer (its forward and backward attention), one per layer for the
// broadcast causal mask, one for the mask itself; bits: 3 (docs/nda.md).
// RUN: toast-models transformer --layers 2 --batch 2 --seq 8 --d-model 16 --heads 2 --vocab 32 --hidden 32 -o %t.2.mlir
// RUN: toast-models transformer --layers 4 --batch 2 --seq 8 --d-model 16 --heads 2 --vocab 32 --hidden 32 -o %t.4.mlir
// RUN: toast-models transformer --layers 8 --batch 2 --seq 8 --d-model 16 --heads 2 --vocab 32 --hidden 32 -o %t.8.mlir
// RUN: toast-opt %t.2.mlir --toast-nda=json=%t.2.json -o /dev/null
// RUN: toast-opt %t.4.mlir --toast-nda=json=%t.4.json -o /dev/null
// RUN: toast-opt %t.8.mlir --toast-nda=json=%t.8.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.8.json
// RUN: %python %S/Inputs/check_nda_layers.py %t.2.json %t.4.json %t.8.json | FileCheck %s
// CHECK: OK bits=[3, 3, 3] sets=[5, 9, 17] conflicts=[55, 107, 211]
