// The search's report says when a peak does not fit in the device memory,
// and by how much, as --partir-simulate's warning does (a user trial found
// the overflow only in the simulator's summary).
// RUN: toast-opt %toast_src_root/examples/mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/tiny-memory.json seed=1" -o /dev/null 2>&1 | FileCheck %s
// CHECK: start cost {{.*}} (225.649 us step, 41.00 MiB peak: does not fit, 37.00 MiB over the device's 4.00 MiB)
// CHECK: mcts chose {{.*}} peak: does not fit, {{.*}} over the device's 4.00 MiB)
// On a100 it fits, and the lines say nothing of memory.
// RUN: toast-opt %toast_src_root/examples/mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FITS
// FITS: start cost 1 (225.649 us step, 41.00 MiB peak)
// FITS: mcts chose {{.*}} (28.206 us step, 33.13 MiB peak)
