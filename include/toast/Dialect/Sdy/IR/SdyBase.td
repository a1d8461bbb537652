//===- SdyBase.td - Minimal sdy dialect, attributes ---------*- tablegen -*-===//
//
// A minimal dialect named `sdy` so that programs annotated for Shardy (JAX
// exports with `sdy.mesh` and `sdy.sharding`) parse with Toast's tools. It
// holds the mesh, the tensor sharding attribute and `sharding_constraint`;
// propagation and the sdy collectives are out of scope. The syntax follows
// Shardy's printed form; the implementation is our own.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_SDY_IR_SDYBASE_TD
#define TOAST_DIALECT_SDY_IR_SDYBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Sdy_Dialect : Dialect {
  let name = "sdy";
  let cppNamespace = "::toast::sdy";
  let summary = "Shardy-compatible mesh and sharding annotations";
  let description = [{
    Meshes are module-level symbols (`sdy.mesh @mesh = <["x"=2, "y"=4]>`);
    values are annotated with `#sdy.sharding<@mesh, [{"x"}, {} ]>`, one
    `{...}` per tensor dimension listing its mesh axes from major to minor.
    Function arguments and results carry the sharding in the `sdy.sharding`
    attribute; ops carry `#sdy.sharding_per_value<[...]>` under the same
    name. The dialect verifies these attributes against the mesh.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding a sharding.
    static constexpr ::llvm::StringLiteral kShardingAttrName = "sdy.sharding";
    void registerAttributes();
  }];
}

class Sdy_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sdy_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Sdy_MeshAttr : Sdy_Attr<"Mesh", "mesh"> {
  let summary = "named mesh axes with sizes, and an optional device order";
  let description = [{
    `<["a"=2, "b"=4]>`; `device_ids=[...]` lists the device of each
    row-major mesh position when it is not the identity:
    `<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>`. `<[]>` is the empty
    mesh and `<[], device_ids=[3]>` a single device.
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::StringAttr">:$axisNames,
                        ArrayRefParameter<"int64_t">:$axisSizes,
                        OptionalArrayRefParameter<"int64_t">:$deviceIds);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Size of `axis`, or std::nullopt when the mesh has no such axis.
    std::optional<int64_t> getAxisSize(::llvm::StringRef axis) const;
    /// Product of the axis sizes.
    int64_t getNumDevices() const;
    /// Whether `device_ids` is absent or the identity.
    bool hasIotaDeviceIds() const;
  }];
}

def Sdy_DimensionShardingAttr
    : Sdy_Attr<"DimensionSharding", "dimension_sharding"> {
  let summary = "the mesh axes one tensor dimension is sharded on";
  let description = [{
    Printed inside a sharding as `{"a", "b"}` (closed), `{"a", ?}` (open:
    propagation may add minor axes) or `{?}`, optionally followed by a
    priority `p0` (p0 is the highest).
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::StringAttr">:$axes,
                        "bool":$isClosed,
                        DefaultValuedParameter<"int64_t", "-1">:$priority);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    bool hasPriority() const { return getPriority() >= 0; }
  }];
}

def Sdy_TensorShardingAttr : Sdy_Attr<"TensorSharding", "sharding"> {
  let summary = "the sharding of a tensor over a mesh symbol";
  let description = [{
    `#sdy.sharding<@mesh, [{"a"}, {"b", ?}, {} ], replicated={"c"}>`: one
    dimension sharding per tensor dimension, then axes that are explicitly
    replicated (never used for sharding) and, optionally, `unreduced` axes.
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$meshName,
                        ArrayRefParameter<"DimensionShardingAttr">:$dimShardings,
                        OptionalArrayRefParameter<"::mlir::StringAttr">:$replicatedAxes,
                        OptionalArrayRefParameter<"::mlir::StringAttr">:$unreducedAxes);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDimShardings().size(); }
    /// The mesh op this sharding names, looked up from `from`; null if none.
    MeshOp lookupMesh(::mlir::Operation *from) const;
    /// Checks the sharding against `type` (rank) and the mesh it names
    /// (axes exist, none used twice). Errors go through `emitError`.
    ::mlir::LogicalResult
    verifyFor(::mlir::Type type, ::mlir::Operation *symbolFrom,
              ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// Axes of dimension `dim`, major to minor, as strings.
    ::llvm::SmallVector<::llvm::StringRef> getDimAxes(int64_t dim) const;
  }];
}

def Sdy_TensorShardingPerValueAttr
    : Sdy_Attr<"TensorShardingPerValue", "sharding_per_value"> {
  let summary = "one sharding per result of an op";
  let description = [{
    `#sdy.sharding_per_value<[<@mesh, [{"a"}, {} ]>, <@mesh, [{} ]>]>`.
  }];
  let parameters = (ins ArrayRefParameter<"TensorShardingAttr">:$shardings);
  let hasCustomAssemblyFormat = 1;
}

#endif // TOAST_DIALECT_SDY_IR_SDYBASE_TD
