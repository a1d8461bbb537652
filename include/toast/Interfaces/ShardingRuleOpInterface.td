//===- ShardingRuleOpInterface.td - Per-op partitioning rules -*- tablegen -*-===//
#ifndef TOAST_INTERFACES_SHARDINGRULEOPINTERFACE_TD
#define TOAST_INTERFACES_SHARDINGRULEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::toast";
  let description = [{
    Gives an op's factor-based partitioning rule (see ShardingRule.h). Ops
    toast owns implement it directly; StableHLO ops get it from external
    models registered by `registerStablehloShardingRules`, and a host
    compiler can attach models to its own ops. An op without the interface,
    or whose method returns std::nullopt, is opaque to partitioning.
  }];
  let methods = [
    InterfaceMethod<
      "Returns the rule, or std::nullopt when this instance has none "
      "(e.g. a custom_call with an unknown target).",
      "::std::optional<::toast::ShardingRule>", "getShardingRule">,
  ];
}

#endif // TOAST_INTERFACES_SHARDINGRULEOPINTERFACE_TD
