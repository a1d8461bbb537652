// The corpus model with ops of a dialect toast does not know (enzyme).
// REQUIRES: corpus

// Without --allow-unregistered-dialect: a located error naming the op.
// RUN: not toast-opt %corpus/models-opaque/kan1grad.mlir 2>&1 | FileCheck %s --check-prefix=REJECT
// REJECT: kan1grad.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Dialect `enzyme' not found for custom op 'enzyme.batch'

// With it: the unknown ops become opaque, print in generic form, and the
// printed file round-trips to identical text (pretty and generic).
// RUN: toast-opt --allow-unregistered-dialect %corpus/models-opaque/kan1grad.mlir > %t.1.mlir
// RUN: toast-opt --allow-unregistered-dialect %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: toast-opt --allow-unregistered-dialect --mlir-print-op-generic %corpus/models-opaque/kan1grad.mlir > %t.3.mlir
// RUN: toast-opt --allow-unregistered-dialect --mlir-print-op-generic %t.3.mlir > %t.4.mlir
// RUN: diff %t.3.mlir %t.4.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK: "enzyme.batch"(%{{.*}}) {batch_shape = array<i64: 1, 100>, toast.opaque_symbol = @softsign_broadcast_scalar}
// CHECK: "enzyme.autodiff"({{.*}}) {activity = [#enzyme<activity enzyme_active>,
