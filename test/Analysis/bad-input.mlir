// Unwritable output paths are clear errors.
// RUN: not toast-opt %s --toast-nda=json=%t.missing/dir/out.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not toast-opt %s --toast-nda=dot=%t.missing/dir/out.dot -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOT
// A write that fails (a full device) is a located error, not an abort.
// RUN: not toast-opt %s --toast-nda=json=/dev/full -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON-FULL
// RUN: not toast-opt %s --toast-nda=dot=/dev/full -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOT-FULL
// RUN: not toast-opt %s --toast-nda=bogus=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: echo "module {}" | not toast-opt --toast-nda=json=- -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// Without json= or dot= it says what it found and where the report goes:
// RUN: toast-opt %s --toast-nda -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: remark: toast-nda: {{[0-9]+}} names in {{[0-9]+}} colors, 0 conflicts in 0 sets; json=PATH and dot=PATH write the report and the drawing

// JSON: error: toast-nda: cannot write the JSON report to '{{.*}}out.json'
// DOT: error: toast-nda: cannot write the DOT drawing to '{{.*}}out.dot'
// JSON-FULL: bad-input.mlir:{{[0-9]+}}:1: error: toast-nda: cannot write the JSON report to '/dev/full': {{.+}}
// JSON-FULL-NOT: LLVM ERROR
// DOT-FULL: bad-input.mlir:{{[0-9]+}}:1: error: toast-nda: cannot write the DOT drawing to '/dev/full': {{.+}}
// DOT-FULL-NOT: LLVM ERROR
// OPT: no such option bogus
// EMPTY: error: toast-nda: the module has no function
module {
  func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %y = stablehlo.add %x, %x : tensor<4x4xf32>
    return %y : tensor<4x4xf32>
  }
}
