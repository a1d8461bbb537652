// The simulator's reports name ops in the user's terms (ValueNames.h): the
// `loc("jit(f)/.../op"(...))` names JAX gives ops, and for an op without
// one (the collectives the lowering adds) the name of the value it reads
// (`jax.arg_info`). The input is written as current JAX exports print it:
// `#loc` aliases, NameLocs around file locations, jax.arg_info and
// jax.result_info.
//
// RUN: toast-opt %s --partir-manual-partition="axis=M inputs=arg1=1;arg2=0 mesh=M=2" --partir-materialize-core --partir-lower-to-hlo --partir-simulate="json=%t.json trace=%t.trace" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// TEXT: peak memory {{.*}} at op #1 stablehlo.tanh {{.*}} (jit(train_step)/jit(main)/tanh)
// TEXT: memory floor {{.*}} after op #0 stablehlo.dot_general {{.*}} (jit(train_step)/jit(main)/dot_general)
// JSON: "peak_memory_name": "jit(train_step)/jit(main)/tanh"
// JSON: "memory_floor_name": "jit(train_step)/jit(main)/dot_general"
// TRACE-DAG: "name":"partir_hlo.all_reduce"{{.*}}"value":"jit(train_step)/jit(main)/dot_general_1"
// TRACE-DAG: "name":"peak memory"{{.*}}"value":"jit(train_step)/jit(main)/tanh"

// Without location names, an op is named by the values it reads.
// RUN: toast-opt %s --mlir-print-debuginfo | sed -e 's/loc(#loc[567])/loc(#loc)/' | toast-opt --partir-manual-partition="axis=M inputs=arg1=1;arg2=0 mesh=M=2" --partir-materialize-core --partir-lower-to-hlo --partir-simulate=json=%t.args.json -o /dev/null
// RUN: FileCheck %s --check-prefix=ARGS < %t.args.json
// ARGS: "memory_floor_name": "batch['x']"

#loc1 = loc("/tmp/train.py":10:0)
#loc2 = loc("/tmp/train.py":11:0)
#loc3 = loc("/tmp/train.py":12:0)
module @jit_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xf32> {jax.arg_info = "batch['x']", mhlo.sharding = "{replicated}"} loc("batch['x']"),
                         %arg1: tensor<32x64xf32> {jax.arg_info = "params['w1']", mhlo.sharding = "{replicated}"} loc("params['w1']"),
                         %arg2: tensor<64x32xf32> {jax.arg_info = "params['w2']", mhlo.sharding = "{replicated}"} loc("params['w2']"))
      -> (tensor<64x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32> loc(#loc5)
    %1 = stablehlo.tanh %0 : tensor<64x64xf32> loc(#loc6)
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x32xf32>) -> tensor<64x32xf32> loc(#loc7)
    return %2 : tensor<64x32xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc5 = loc("jit(train_step)/jit(main)/dot_general"(#loc1))
#loc6 = loc("jit(train_step)/jit(main)/tanh"(#loc2))
#loc7 = loc("jit(train_step)/jit(main)/dot_general_1"(#loc3))
