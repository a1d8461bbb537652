// Command line: listing, help and errors.
// RUN: toast-models --list | FileCheck %s --check-prefix=LIST
// RUN: toast-models --help | FileCheck %s --check-prefix=HELP
// RUN: not toast-models 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not toast-models nosuchmodel 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not toast-models transformer --layers -1 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not toast-models t2b --layers 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not toast-models mlp --vocab 10 2>&1 | FileCheck %s --check-prefix=NOTTAKEN
// RUN: not toast-models t32 --heads 6 --kv-heads 4 --layers 1 2>&1 | FileCheck %s --check-prefix=HEADS
// RUN: not toast-models mlp --dtype f16 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not toast-models t32 --embedding table 2>&1 | FileCheck %s --check-prefix=EMB
// RUN: not toast-models mlp --layers abc 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not toast-models mlp --d-model=4611686018427387904 -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: toast-models: the sizes make a tensor<{{.*}}x4611686018427387904xf32> of 2^62 bytes or more, past 64-bit counts
// RUN: not toast-models mlp -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL

// LIST: mlp
// LIST: transformer
// LIST: itx
// LIST: t32 {{.*}}[transformer]
// LIST: t48
// LIST: t2b
// LIST: t7b

// HELP: Models and presets:
// HELP: t32
// HELP: --batch=<n>
// HELP: --d-model=<n>
// HELP: --inference
// HELP: --layers=<n>
// HELP: --list
// HELP: -o <file>

// NONE: toast-models: no model given (try --list)
// UNKNOWN: toast-models: unknown model 'nosuchmodel' (known: mlp transformer
// NEG: toast-models: --layers must be positive, got -1
// ZERO: toast-models: --layers must be positive, got 0
// NOTTAKEN: toast-models: model 'mlp' does not take --vocab (it takes: --layers --batch --d-model --hidden)
// HEADS: toast-models: --heads (6) must be a multiple of --kv-heads (4)
// DTYPE: toast-models: unknown --dtype 'f16' (expected f32, bf16 or f64)
// EMB: toast-models: unknown --embedding 'table' (expected gather or onehot)
// NOTINT: for the --layers option: 'abc' value invalid
// FULL: toast-models: cannot write '/dev/full': {{.+}}
// FULL-NOT: LLVM ERROR
