//===- StablehloShardingRules.h - StableHLO/CHLO rules ----------*- C++ -*-===//
//
// External models of ShardingRuleOpInterface for every op of toast's
// StableHLO and CHLO dialects (design.md §2). The dialects do not depend on
// the interface; a host compiler (or toast-opt) opts in by calling
// registerStablehloShardingRules on its DialectRegistry.
//
// Conventions shared by all rules:
//   * factor sizes are dimension sizes, except the major factor of a
//     reshaped group (see the reshape rule) and not-tileable factors, whose
//     size is the size of the result dimension they map;
//   * scalar operands of non-scalar ops (select predicates, clamp bounds,
//     init values, start indices) stay unmapped;
//   * ops with a dynamically shaped operand or result have no rule
//     (std::nullopt): partitioning needs static sizes;
//   * ops whose partitioning toast does not model (collectives, random bits,
//     device ids, composite, unknown custom_call targets, region
//     terminators) are given a model that returns std::nullopt, so every op
//     implements the interface and "opaque" is an explicit decision.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERFACES_STABLEHLOSHARDINGRULES_H
#define TOAST_INTERFACES_STABLEHLOSHARDINGRULES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace toast {

/// Attaches ShardingRuleOpInterface external models to every StableHLO and
/// CHLO op when those dialects are loaded into a context using `registry`.
void registerStablehloShardingRules(mlir::DialectRegistry &registry);

} // namespace toast

#endif // TOAST_INTERFACES_STABLEHLOSHARDINGRULES_H
