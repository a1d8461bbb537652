// Padded (uneven) collectives on 4 simulated devices against their
// definitions (docs/interpreter.md): all_slice pads the last chunks,
// all_gather drops the padding, and the SPMD runner pads the shards of
// arguments and drops the padding of results whose boundary records
// `toast.global_shape`. The same after export to StableHLO collectives.
//
// RUN: toast-run --compare %S/Inputs/padded-global.mlir %S/Inputs/padded-hlo.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %S/Inputs/padded-hlo.mlir --partir-export-stablehlo -o %t.exp.mlir
// RUN: FileCheck %s --check-prefix=EXPORT < %t.exp.mlir
// RUN: toast-run --compare %S/Inputs/padded-global.mlir %t.exp.mlir | FileCheck %s --check-prefixes=CHECK,EXP

// HLO: @main runs SPMD on 4 devices (PartIR:HLO)
// EXP: @main runs SPMD on 4 devices (exported StableHLO)
// CHECK-NEXT: result #0 tensor<10x3xf32>: {{.*}}: ok
// CHECK-NEXT: result #1 tensor<10x3xf32>: {{.*}}: ok
// CHECK-NEXT: result #2 tensor<10x3xf32>: {{.*}}: ok
// CHECK-NEXT: result #3 tensor<3xf32>: {{.*}}: ok
// CHECK-NEXT: results agree

// The export pads before the partition-id dynamic_slice (which would clamp
// the last device's chunk back into the data) and slices the padding off
// after the all_gather; the boundary keeps the global shape.
// EXPORT: toast.global_shape = array<i64: 10, 3>, toast.global_sharding = "{devices=[4,1]<=[4]}"
// EXPORT: stablehlo.pad %{{.*}}, %{{.*}}, low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<10x3xf32>, tensor<f32>) -> tensor<12x3xf32>
// EXPORT: stablehlo.dynamic_slice
// EXPORT: "stablehlo.all_gather"
// EXPORT-SAME: -> tensor<12x3xf32>
// EXPORT-NEXT: stablehlo.slice %{{.*}} [0:10, 0:3] : (tensor<12x3xf32>) -> tensor<10x3xf32>

// A missing mask is caught: without the select, the cosine of the padding
// enters the sum.
// RUN: sed 's/stablehlo.select .pred, \(.c, .zeros\) : tensor<3x3xi1>, /stablehlo.add \1 : /' %S/Inputs/padded-hlo.mlir > %t.nomask.mlir
// RUN: not toast-run --compare %S/Inputs/padded-global.mlir %t.nomask.mlir | FileCheck %s --check-prefix=NOMASK
// NOMASK: result #3 tensor<3xf32>: {{.*}}: MISMATCH
