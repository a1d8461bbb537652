// JAX's GPT-2 `generate` export (batch 1, prompt of 7 tokens, max_length 20):
// the decode `while` goes on while `!(i == 20 || all(done))` from
// i = 7 + 1, so it runs at most 12 times. The simulator prices it at 12
// iterations and says so; the search prices the body that many times too
// and partitions it on a 4x2 mesh (the weights are constants of the
// export, so the interpreter cannot run it: `dense_resource` is elided).
// REQUIRES: corpus
// RUN: toast-opt %corpus/exports/jax_gpt2_generate_bs1.mlir --partir-simulate="device=a100 json=%t.json summary=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: toast-opt %corpus/exports/jax_gpt2_generate_bs1.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=40 budget-s=0 progress=false" --partir-lower-to-hlo --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// REMARK: remark: this condition may end its loop before its 12 iterations (it has other terms); priced at 12
// JSON: "uncounted_loops": 0,
// JSON: "at_most_loops": 1,
// AUTO: remark: automatic partitioning: this condition may end its loop before 12 iterations; the loop's body is priced that many times
// AUTO: collectives    : all_gather={{[0-9]+}} all_reduce={{[1-9][0-9]*}}
// AUTO: note           : 1 while loop(s) priced at their maximum trip count (they may exit earlier)
