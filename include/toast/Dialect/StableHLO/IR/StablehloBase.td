//===- StablehloBase.td - StableHLO dialect definition -----*- tablegen -*-===//
//
// Toast's own implementation of the StableHLO op set (dialect name
// `stablehlo`). It reads what JAX and PyTorch exports print, in pretty and
// generic form. It depends on nothing PartIR.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOBASE_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def StableHLO_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::toast::stablehlo";
  let summary = "Toast's implementation of the StableHLO operation set";
  let description = [{
    The StableHLO operations that JAX and PyTorch/XLA exports contain, with
    the printed syntax those exports use. Discardable attributes (`mhlo.*`,
    `jax.*`, `sdy.*`, ...) are kept unchanged.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
    void registerOps();
  }];
}

class StableHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<StableHLO_Dialect, mnemonic, traits>;

// Tensor constraints. StableHLO values are statically ranked tensors; the
// element type may be any int/float/complex/bool type.
def HLO_Tensor : RankedTensorOf<[AnyType]>;
def HLO_PredTensor : RankedTensorOf<[I1]>;
def HLO_ScalarIntTensor : 0DTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>;
def HLO_IntTensor : RankedTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>;

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOBASE_TD
