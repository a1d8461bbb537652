// Exporters print every elided weight as `dense_resource<__elided__>`;
// parsed, those are one attribute, which lowering's constant folding then
// merged (the GPT-2 export's 148 weights became 9, and every price of the
// search and of the lowered program lost 149 MiB of weights). Partitioning
// first gives each such constant a resource of its own
// (partition::distinguishElidedConstants), and toast-run fills every
// `__elided__` key alike.
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#0=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: toast-run --fill-elided --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
// The search prices the program with both weights, as the simulator does.
// RUN: toast-opt %s --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4 device=a100 rollouts=4 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCH
// CHECK: %[[A:.*]] = stablehlo.constant dense_resource<__elided___[[N:[0-9]+]]> : tensor<8x16xf32>
// CHECK-NOT: dense_resource<__elided___[[N]]>
// CHECK: stablehlo.constant dense_resource<__elided___{{[0-9]+}}> : tensor<8x16xf32>
// AGREE: results agree
// INPUT: peak memory    : 2.00 KiB (2048 B)
// SEARCH: start cost 1 ({{.*}} step, 2.00 KiB peak)

func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = stablehlo.constant dense_resource<__elided__> : tensor<8x16xf32>
  %b = stablehlo.constant dense_resource<__elided__> : tensor<8x16xf32>
  %0 = stablehlo.add %x, %a : tensor<8x16xf32>
  %1 = stablehlo.multiply %0, %b : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
