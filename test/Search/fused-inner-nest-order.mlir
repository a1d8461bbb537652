// A fused op's loops inside the deepest one that joined its reader's are a
// nest of their own in that body: each of its levels runs what fused into
// it before its next loop. Here %d fuses into %o at B only, so its S sum and
// M tile stay a nest inside B's body; %qt's chain fused at S runs before
// the M loop that holds %rt's all_slice on S and transpose. The planner
// mapped both chains to the root's B level and kept operand order (operand
// 1 first), so the S slice of %r met %qt's chain and the planned peak was
// 12,000 B below lowering's (corpus kan1 and kan2 on {B:2, S:2, M:2}: a
// state each 9.2% and 6.7% low on peak).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" -o %t.planned.mlir
// RUN: toast-opt %t.planned.mlir --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: FileCheck %s --check-prefix=ORDER < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// PEAK: peak memory    : 160.16 KiB (164000 B)
// ORDER: stablehlo.reshape %arg1
// ORDER-NEXT: stablehlo.transpose
// ORDER-NEXT: partir_hlo.all_slice [{}, {"S"}]
// ORDER-NEXT: stablehlo.transpose
// ORDER-NEXT: stablehlo.dot_general
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=2, "S"=2, "M"=2]>} {
  func.func @main(%a: tensor<4000x10xf32>, %p: tensor<16000xf32>) -> tensor<100x40xf32> {
    %e = stablehlo.exponential %a {partir.loops = ["B:0", "M:1"]} : tensor<4000x10xf32>
    %r = stablehlo.reshape %e {partir.loops = ["B:0", "M:0"]} : (tensor<4000x10xf32>) -> tensor<100x400xf32>
    %rt = stablehlo.transpose %r, dims = [1, 0] {partir.loops = ["B:1", "S:0", "M:1"]} : (tensor<100x400xf32>) -> tensor<400x100xf32>
    %q = stablehlo.reshape %p {partir.loops = ["S:0"]} : (tensor<16000xf32>) -> tensor<400x40xf32>
    %qt = stablehlo.transpose %q, dims = [1, 0] {partir.loops = ["S:1"]} : (tensor<400x40xf32>) -> tensor<40x400xf32>
    %d = stablehlo.dot_general %qt, %rt, contracting_dims = [1] x [0] {partir.loops = ["B:1", "S:2", "M:1"]} : (tensor<40x400xf32>, tensor<400x100xf32>) -> tensor<40x100xf32>
    %o = stablehlo.transpose %d, dims = [1, 0] {partir.loops = ["B:0", "S:1", "M:0"]} : (tensor<40x100xf32>) -> tensor<100x40xf32>
    return %o : tensor<100x40xf32>
  }
}
