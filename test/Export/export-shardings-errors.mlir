// --partir-export-shardings reads the partitioning state of the global
// program; a materialized or lowered program, a missing mesh or a bad
// option are reported.
// RUN: toast-opt %s -split-input-file --partir-export-shardings -verify-diagnostics
// RUN: not toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-export-shardings=format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-export-shardings=scope=ops 2>&1 | FileCheck %s --check-prefix=SCOPE

// FORMAT: format must be both, mhlo or sdy, got 'xml'
// SCOPE: scope must be all or boundary, got 'ops'

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{'partir.loop' op --partir-export-shardings needs the global program with its partitioning state: run the tactics without materializing (e.g. --partir-schedule="file=... materialize=false")}}
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
      partir.yield %s : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{'partir_hlo.all_gather' op --partir-export-shardings needs the global program}}
    %0 = partir_hlo.all_gather [{"B"}, {}] %x : tensor<4x8xf32> -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// expected-error @+1 {{--partir-export-shardings: the module has no partir.mesh; run a tactic pass first}}
module {
  func.func @main(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    return %x : tensor<16x8xf32>
  }
}
