//===- Passes.td - Cross-dialect Toast passes --------------*- tablegen -*-===//
#ifndef TOAST_TRANSFORMS_PASSES_TD
#define TOAST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def OpSummaryPass : Pass<"toast-op-summary", "::mlir::ModuleOp"> {
  let summary = "Prints a one-line summary of the ops in a module";
  let description = [{
    Counts the operations of the module (excluding the module itself) and
    prints one line to stderr, most frequent first:

    ```
    toast-op-summary: 2893 ops in 1 function: 1043 stablehlo.constant, ...
    ```

    With `top=N` only the N most frequent op kinds are named (0 names all).
    The IR is not changed, so the pass can sit anywhere in a pipeline.

    **Options:** `top` (default 8).
  }];
  let options = [
    Option<"top", "top", "unsigned", /*default=*/"8",
           "Number of op kinds to name (0 = all)">,
  ];
  let statistics = [
    Statistic<"numOps", "num-ops", "Number of operations counted">,
  ];
}

#endif // TOAST_TRANSFORMS_PASSES_TD
