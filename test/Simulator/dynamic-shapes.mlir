// The simulator cannot price a dynamic dimension: a dynamically shaped
// value counts 0 bytes and its ops take no time. --partir-simulate says so
// with one warning, at the first such value (here an argument; the all_gather
// and the add that follow get none). It is not an error, as a loop without
// a trip count is not: the program is valid, only its price is unknown, and
// the report is written.
// RUN: toast-opt %s --partir-simulate="device=a100 json=%t.json summary=false" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "step_time_s": 0,
// CHECK: "comm_bytes": 0,
// CHECK-NEXT: "peak_memory_bytes": 0,
// CHECK: "collectives": {
// CHECK-NEXT: "all_gather": 1,

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  // expected-warning @+1 {{dynamic shape 'tensor<?x2xf32>': the simulator prices dynamic dimensions as size 0 (this and every other dynamically shaped value count no bytes and take no time)}}
  func.func @main(%a: tensor<?x2xf32> {partir.sharding = [[], ["B"]]}, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
    %0 = partir_hlo.all_gather [{}, {"B"}] %a : tensor<?x2xf32> -> tensor<?x8xf32>
    %1 = stablehlo.add %0, %b : tensor<?x8xf32>
    return %1 : tensor<?x8xf32>
  }
}
