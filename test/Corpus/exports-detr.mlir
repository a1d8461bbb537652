// torch-mlir's DETR export (ResNet-50 backbone and transformer, 720x1280,
// bf16): it simulates with splat constants fused into their readers (it
// writes relu as `maximum(x, dense<0.0> : <activation shape>)`, 14 such
// constants; stored, they made its peak 1.67x the floor), and the search
// partitions it on a 4x2 mesh with a peak close to its floor.
// REQUIRES: corpus
// RUN: toast-opt %corpus/exports/torchmlir_detr.mlir --partir-simulate="device=a100 json=%t.json summary=false" -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: toast-opt %corpus/exports/torchmlir_detr.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=30 budget-s=0 progress=false" --partir-lower-to-hlo --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// CHECK: "peak_memory_bytes": 221951856,
// CHECK-NEXT: "memory_floor_bytes": 192460640,
// AUTO: (peak / floor = 1.{{[0-2][0-9]}})
// AUTO: collectives    : all_gather={{[0-9]+}} all_reduce={{[1-9][0-9]*}}
