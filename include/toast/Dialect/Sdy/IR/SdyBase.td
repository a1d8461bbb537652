//===- SdyBase.td - Minimal sdy dialect, attributes ---------*- tablegen -*-===//
//
// A dialect named `sdy` so that programs annotated for Shardy (JAX exports
// with `sdy.mesh`, `sdy.sharding`, `sdy.manual_computation`, ...) parse with
// Toast's tools. It holds the mesh, axis references (with sub-axes), the
// tensor sharding attribute and the attributes of the sdy collectives;
// Shardy's propagation is out of scope. The syntax follows Shardy's printed
// form; the implementation is our own.
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

def Sdy_AxisRefAttr : Sdy_Attr<"AxisRef", "axis_ref"> {
  let summary = "a mesh axis, or a sub-axis of one";
  let description = [{
    `"x"` names the whole axis; `"x":(m)k` its sub-axis of size `k` whose
    more major sub-axes have a product of `m` (the "pre-size"). A mesh axis
    of size `n` splits into sub-axes whose sizes multiply to `n`, so `m * k`
    must divide `n`; e.g. on `"x"=8`, `"x":(1)2` and `"x":(2)4` split it
    into a major part of 2 and a minor part of 4.
  }];
  let parameters = (ins "::mlir::StringAttr":$name,
                        DefaultValuedParameter<"int64_t", "0">:$preSize,
                        DefaultValuedParameter<"int64_t", "0">:$subSize);
  let hasCustomAssemblyFormat = 1;
  let builders = [AttrBuilderWithInferredContext<(ins "::mlir::StringAttr":$name), [{
      return $_get(name.getContext(), name, 0, 0);
    }]>];
  let extraClassDeclaration = [{
    bool isSubAxis() const { return getSubSize() > 0; }
    ::llvm::StringRef getAxisName() const { return getName().getValue(); }
    /// The number of devices the reference splits into on `mesh` (the axis
    /// size, or the sub-axis size); 0 when the mesh has no such axis.
    int64_t getSize(MeshAttr mesh) const;
    /// Whether this and `other` cover a common part of one mesh axis.
    bool overlaps(AxisRefAttr other) const;
    /// This device's index along the reference, given its coordinate
    /// `coord` on the whole axis of size `axisSize`.
    int64_t getIndex(int64_t coord, int64_t axisSize) const;
    /// `"x"` or `"x":(m)k`, as printed in shardings.
    std::string str() const;
    /// Prints/parses the reference without the `#sdy.axis_ref` wrapper.
    void printBody(::mlir::AsmPrinter &printer) const;
    static ::mlir::FailureOr<AxisRefAttr> parseBody(::mlir::AsmParser &parser);
  }];
}

def Sdy_AxisRefListAttr : Sdy_Attr<"AxisRefList", "axis_ref_list"> {
  let summary = "a set of axis references, `{\"a\", \"b\":(1)2}`";
  let parameters = (ins ArrayRefParameter<"AxisRefAttr">:$axes);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_ListOfAxisRefListsAttr
    : Sdy_Attr<"ListOfAxisRefLists", "list_of_axis_ref_lists"> {
  let summary = "one axis list per tensor dimension, `[{}, {\"x\"}]`";
  let description = [{
    The axes a collective gathers, slices or scatters, per dimension,
    appended (or removed) at the minor end of that dimension's sharding.
  }];
  let parameters = (ins ArrayRefParameter<"AxisRefListAttr">:$lists);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_AllToAllParamAttr : Sdy_Attr<"AllToAllParam", "all_to_all_param"> {
  let summary = "axes an all_to_all moves from one dimension to another";
  let description = [{
    `{"x"}: 0->1`: the axes leave the minor end of dimension 0's sharding
    and join the minor end of dimension 1's.
  }];
  let parameters = (ins ArrayRefParameter<"AxisRefAttr">:$axes,
                        "int64_t":$srcDim, "int64_t":$tgtDim);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_AllToAllParamListAttr
    : Sdy_Attr<"AllToAllParamList", "all_to_all_param_list"> {
  let summary = "the moves of one all_to_all, `[{\"x\"}: 0->1, ...]`";
  let parameters = (ins ArrayRefParameter<"AllToAllParamAttr">:$params);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_DimensionShardingAttr
    : Sdy_Attr<"DimensionSharding", "dimension_sharding"> {
  let summary = "the mesh axes one tensor dimension is sharded on";
  let description = [{
    Printed inside a sharding as `{"a", "b"}` (closed), `{"a", ?}` (open:
    propagation may add minor axes) or `{?}`, optionally followed by a
    priority `p0` (p0 is the highest).
  }];
  let parameters = (ins ArrayRefParameter<"AxisRefAttr">:$axes,
                        "bool":$isClosed,
                        DefaultValuedParameter<"int64_t", "-1">:$priority);
  let hasCustomAssemblyFormat = 1;
  let builders = [AttrBuilder<(ins
      "::llvm::ArrayRef<::mlir::StringAttr>":$axisNames, "bool":$isClosed,
      "int64_t":$priority)>];
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
    The mesh is a symbol (`@mesh`) or written inline
    (`<mesh<["a"=2]>, [{"a"} ]>`). Axes may be sub-axes (`{"x":(1)2}`); the
    references of one sharding must not overlap.
  }];
  let parameters = (ins "::mlir::Attribute":$meshOrRef,
                        ArrayRefParameter<"DimensionShardingAttr">:$dimShardings,
                        OptionalArrayRefParameter<"AxisRefAttr">:$replicatedAxes,
                        OptionalArrayRefParameter<"AxisRefAttr">:$unreducedAxes);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDimShardings().size(); }
    /// The mesh symbol, or null when the mesh is inline.
    ::mlir::FlatSymbolRefAttr getMeshName() const {
      return ::llvm::dyn_cast<::mlir::FlatSymbolRefAttr>(getMeshOrRef());
    }
    /// The mesh op this sharding names, looked up from `from`; null if none
    /// (or the mesh is inline).
    MeshOp lookupMesh(::mlir::Operation *from) const;
    /// The mesh: inline, or the named one looked up from `from`; null if
    /// there is no such symbol.
    MeshAttr getMesh(::mlir::Operation *from) const;
    /// Checks the sharding against `type` (rank) and the mesh it names
    /// (axes and sub-axes exist, none overlaps another). Errors go through
    /// `emitError`.
    ::mlir::LogicalResult
    verifyFor(::mlir::Type type, ::mlir::Operation *symbolFrom,
              ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// Axes of dimension `dim`, major to minor, as strings (sub-axes as
    /// `"x":(m)k`).
    ::llvm::SmallVector<std::string> getDimAxes(int64_t dim) const;
    /// Whether any axis reference of the sharding is a sub-axis.
    bool hasSubAxes() const;
    /// The sharding printed the way it appears after `#sdy.sharding`.
    std::string str() const;
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
