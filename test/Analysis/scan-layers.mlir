// Scanned layers (toast-models --scan: stablehlo.while loops over stacked
// parameters) need no more resolution bits than their unrolled forms (3 for
// the transformer training step, repeated-layers.mlir; 2 for the itx decode
// loop), for any depth. Paths do not go around the loops; if they did, the
// body's query and key dims would be joined through the next iteration and
// most attention conflicts would be sets of their own (the forward and
// backward scans of the 4-layer transformer had 25 sets and 18 bits). The
// itx decode loop around a layer scan has nested whiles. No while or
// stablehlo.return is opaque.
// RUN: toast-models transformer --scan --layers 2 --batch 2 --seq 8 --d-model 16 --heads 2 --vocab 32 --hidden 32 -o %t.t2.mlir
// RUN: toast-models transformer --scan --layers 4 --batch 2 --seq 8 --d-model 16 --heads 2 --vocab 32 --hidden 32 -o %t.t4.mlir
// RUN: toast-opt %t.t2.mlir --toast-nda=json=%t.t2.json -o /dev/null
// RUN: toast-opt %t.t4.mlir --toast-nda=json=%t.t4.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.t2.json > %t.t2.txt
// RUN: %python %S/Inputs/check_nda_json.py %t.t4.json > %t.t4.txt
// RUN: cat %t.t2.txt %t.t4.txt | FileCheck %s --check-prefix=T
// RUN: FileCheck %s --check-prefix=OPAQUE < %t.t4.json
// The same analysis for 2 and 4 layers (the stacks only change sizes).
// T: OK [[COUNTS:names=.* bits=[1-3] groups=.*]]
// T-NEXT: OK [[COUNTS]]

// RUN: toast-models itx --scan --decode-steps 4 --layers 2 --batch 2 --seq 8 --d-model 16 --heads 2 --vocab 32 --hidden 32 -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --toast-nda=json=%t.itx.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.itx.json | FileCheck %s --check-prefix=ITX
// RUN: FileCheck %s --check-prefix=OPAQUE < %t.itx.json
// ITX: OK {{.*}} bits={{[12]}} groups=
// OPAQUE: "num_opaque_ops": 0,
