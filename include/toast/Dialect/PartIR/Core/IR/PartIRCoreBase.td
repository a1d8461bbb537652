//===- PartIRCoreBase.td - PartIR:Core dialect, types, attrs -*- tablegen -*-===//
//
// PartIR:Core (PartIR paper §5): loops over mesh axes whose bodies compute
// one tile, slices indexed by loop ranges, and the mesh they refer to.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCOREBASE_TD
#define TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCOREBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def PartIR_Dialect : Dialect {
  let name = "partir";
  let cppNamespace = "::toast::partir";
  let summary = "PartIR:Core: parallel loops and slices over mesh axes";
  let description = [{
    A program in PartIR:Core has the semantics of the original global
    program: `partir.loop` over a mesh axis of size N runs its body for every
    index of `!partir.range<N>` and combines the yielded tiles (concatenation
    for `#partir.tile<d>`, addition for `#partir.sum`, any copy for
    `#partir.any`); `partir.slice` takes the i-th of N equal chunks of a
    dimension. The mesh is the module attribute `partir.mesh`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute holding the mesh.
    static constexpr ::llvm::StringLiteral kMeshAttrName = "partir.mesh";
    void registerAttributes();
    void registerTypes();
  }];
}

class PartIR_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<PartIR_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def PartIR_RangeType : TypeDef<PartIR_Dialect, "Range"> {
  let mnemonic = "range";
  let summary = "the index of a loop over a mesh axis of the given size";
  let parameters = (ins "int64_t":$size);
  let assemblyFormat = "`<` $size `>`";
  // A loop runs once per index: a range of no index is no mesh axis.
  let genVerifyDecl = 1;
}

def PartIR_MeshAttr : PartIR_Attr<"Mesh", "mesh"> {
  let summary = "a device mesh: named axes with sizes";
  let description = [{
    `#partir.mesh<["B"=4, "M"=2]>`. Axis sizes need not be powers of two.
    Devices are numbered row-major over the axes in order.
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::StringAttr">:$names,
                        ArrayRefParameter<"int64_t">:$sizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Size of `axis`, or std::nullopt when the mesh has no such axis.
    std::optional<int64_t> getAxisSize(::llvm::StringRef axis) const;
    /// Total number of devices.
    int64_t getNumDevices() const;
  }];
}

def PartIR_TileAttr : PartIR_Attr<"Tile", "tile"> {
  let summary = "loop action: concatenate the tiles along a dimension";
  let parameters = (ins "int64_t":$dim);
  let assemblyFormat = "`<` $dim `>`";
}

def PartIR_SumAttr : PartIR_Attr<"Sum", "sum"> {
  let summary = "loop action: add the partial results of all iterations";
}

def PartIR_AnyAttr : PartIR_Attr<"Any", "any"> {
  let summary = "loop action: every iteration yields the same value";
}

#endif // TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCOREBASE_TD
