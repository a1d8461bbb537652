//===- DataFlowEdgeOpInterface.td - Region data flow --------*- tablegen -*-===//
#ifndef TOAST_INTERFACES_DATAFLOWEDGEOPINTERFACE_TD
#define TOAST_INTERFACES_DATAFLOWEDGEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def DataFlowEdgeOpInterface : OpInterface<"DataFlowEdgeOpInterface"> {
  let cppNamespace = "::toast";
  let description = [{
    Describes an op whose regions see tensors and pass values between the op
    and its regions (loops and conditionals): the values that must be one
    value for partitioning. Edge `i` is owned by result `i`. Its *sources*
    are the uses that feed it (a `while`'s operand i and its body's return
    operand i; every branch's return operand i of a `case`/`if`); its
    *targets* are the values it defines (result i, and a `while`'s condition
    and body block argument i). A tied class has one sharding.

    A shard_map region (`sdy.manual_computation`) is such an op too: its
    edges tie each operand to its body argument and each body result to the
    op's result; the global side of an edge is split on the manual axes
    (`getEdgeManualLevels`), the body's values are per device on them
    (`getRegionManualAxes`), and only the free axes flow across.

    Ops with the interface are never partitioned as a whole: the ops in
    their regions are, like the ops of a function body. Regions of ops
    without it (reduction bodies, comparators) are scalar computations that
    belong to their op. `ProgramWalk` and `TiedValues`
    (`toast/Interfaces/ControlFlow.h`) are the utilities built on it.
  }];
  let methods = [
    InterfaceMethod<"The number of edges (one per result).",
      "unsigned", "getNumEdges", (ins), [{}], [{
        return $_op->getNumResults();
      }]>,
    InterfaceMethod<"Appends the uses that feed edge `edge`.",
      "void", "getEdgeSources",
      (ins "unsigned":$edge,
           "::llvm::SmallVectorImpl<::mlir::OpOperand *> &":$sources)>,
    InterfaceMethod<"Appends the values edge `edge` defines, the owning "
                    "result first.",
      "void", "getEdgeTargets",
      (ins "unsigned":$edge,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$targets)>,
    InterfaceMethod<"How many times region `region` runs per execution of "
                    "the op, or std::nullopt when that is not a constant "
                    "(a loop whose trip count is unknown).",
      "::std::optional<int64_t>", "getRegionRunCount",
      (ins "unsigned":$region), [{}], [{ return 1; }]>,
    InterfaceMethod<"The loop's facts (counter, bounds, trip count) or "
                    "std::nullopt for ops that are not counted loops.",
      "::std::optional<::toast::LoopFacts>", "getLoopFacts", (ins), [{}],
      [{ return std::nullopt; }]>,
    InterfaceMethod<"The mesh axes the op's regions already run per "
                    "device on (a shard_map's manual axes): ops inside never "
                    "loop over them. Empty for loops and conditionals.",
      "::llvm::SmallVector<::llvm::StringRef>", "getRegionManualAxes", (ins), [{}],
      [{ return {}; }]>,
    InterfaceMethod<"For an edge between a global value and a region's "
                    "per-device value: the manual axes its global side is "
                    "split on (major first within a dimension) and which "
                    "side that is. Empty for loops and conditionals.",
      "::toast::ManualLevels", "getEdgeManualLevels", (ins "unsigned":$edge),
      [{}], [{ return {}; }]>,
  ];
}

#endif // TOAST_INTERFACES_DATAFLOWEDGEOPINTERFACE_TD
