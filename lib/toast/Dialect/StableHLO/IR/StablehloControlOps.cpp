//===- StablehloControlOps.cpp - Control flow, calls, collectives --------===//
//
// Syntax of `while` and `optimization_barrier`, effects of `custom_call`,
// and the verifiers of control flow, collectives and transfers.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloAssemblyFormat.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace toast::stablehlo;

#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloControlOps.cpp.inc"

/// The region's terminator returns values of exactly `types`.
static LogicalResult verifyRegionReturns(Operation *op, Region &region,
                                         TypeRange types, StringRef name) {
  if (region.empty())
    return op->emitOpError() << name << " must not be empty";
  // The op verifier runs before the block's own checks: the block may be
  // empty.
  if (!region.front().mightHaveTerminator())
    return op->emitOpError() << name << " must end with a terminator";
  Operation *terminator = region.front().getTerminator();
  if (TypeRange(terminator->getOperandTypes()) != types)
    return op->emitOpError()
           << name << " must return values of types (" << types << "), got ("
           << terminator->getOperandTypes() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument arg;
            OpAsmParser::UnresolvedOperand operand;
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(operand))
              return failure();
            args.push_back(arg);
            operands.push_back(operand);
            return success();
          }))
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (!operands.empty() && (parser.parseColon() || parser.parseTypeList(types)))
    return failure();
  if (types.size() != operands.size())
    return parser.emitError(typeLoc, "expected ")
           << operands.size() << " types, got " << types.size();
  for (auto [arg, type] : llvm::zip_equal(args, types))
    arg.type = type;
  if (parser.resolveOperands(operands, types, typeLoc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(types);
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, args) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, args))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &printer) {
  Block &cond = getCond().front();
  printer << '(';
  llvm::interleaveComma(llvm::enumerate(getOperand()), printer, [&](auto it) {
    if (it.index() < cond.getNumArguments())
      printer << cond.getArgument(it.index()) << " = ";
    printer << it.value();
  });
  printer << ')';
  if (!getOperand().empty()) {
    printer << " : ";
    llvm::interleaveComma(getOperand().getTypes(), printer);
  }
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  printer.printNewline();
  printer << " cond ";
  printer.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  printer << " do ";
  // The body's arguments print under the names of the cond's arguments.
  printer.shadowRegionArgs(getBody(), cond.getArguments());
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult WhileOp::verify() {
  TypeRange types = getOperand().getTypes();
  if (TypeRange(getResultTypes()) != types)
    return emitOpError("result types must equal the operand types");
  for (Region *region : {&getCond(), &getBody()})
    if (TypeRange(region->front().getArgumentTypes()) != types)
      return emitOpError("region arguments must have the operand types");
  auto predType = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionReturns(*this, getCond(), predType, "cond")))
    return failure();
  return verifyRegionReturns(*this, getBody(), types, "body");
}

void WhileOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, "iterArg");
}

//===----------------------------------------------------------------------===//
// CaseOp, IfOp
//===----------------------------------------------------------------------===//

LogicalResult CaseOp::verify() {
  if (getBranches().empty())
    return emitOpError("expects at least one branch");
  for (auto [i, region] : llvm::enumerate(getBranches())) {
    if (region.front().getNumArguments() != 0)
      return emitOpError("branch ") << i << " must not take arguments";
    if (failed(verifyRegionReturns(*this, region, getResultTypes(),
                                   "branch " + std::to_string(i))))
      return failure();
  }
  return success();
}

LogicalResult IfOp::verify() {
  if (getTrueBranch().front().getNumArguments() != 0 ||
      getFalseBranch().front().getNumArguments() != 0)
    return emitOpError("branches must not take arguments");
  if (failed(verifyRegionReturns(*this, getTrueBranch(), getResultTypes(),
                                 "true_branch")))
    return failure();
  return verifyRegionReturns(*this, getFalseBranch(), getResultTypes(),
                             "false_branch");
}

//===----------------------------------------------------------------------===//
// CustomCallOp, CompositeOp
//===----------------------------------------------------------------------===//

void CustomCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Without has_side_effect a custom call is a pure function of its operands.
  if (!getHasSideEffect())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

/// The module attribute that declares more identity targets.
static constexpr StringLiteral kIdentityCustomCalls =
    "toast.identity_custom_calls";

/// Targets that return their operand unchanged and that backends remove.
static bool isKnownMarker(StringRef target) {
  return target == "Sharding" || target == "tt.mark_argument";
}

/// The `toast.identity_custom_calls` of the innermost enclosing module that
/// has one (a declaration covers nested modules), null when none does.
static Attribute getDeclaration(Operation *op) {
  for (auto module = op->getParentOfType<ModuleOp>(); module;
       module = module->getParentOfType<ModuleOp>())
    if (Attribute declared = module->getAttr(kIdentityCustomCalls))
      return declared;
  return {};
}

/// The declaration when it is an array (the verifier reports other forms).
static ArrayAttr getDeclaredIdentities(Operation *op) {
  return dyn_cast_or_null<ArrayAttr>(getDeclaration(op));
}

static bool isDeclaredIdentity(Operation *op, StringRef target) {
  ArrayAttr declared = getDeclaredIdentities(op);
  return declared && llvm::any_of(declared, [&](Attribute a) {
           auto name = dyn_cast<StringAttr>(a);
           return name && name.getValue() == target;
         });
}

/// One operand, one ranked tensor result of the same type.
static bool hasIdentityForm(CustomCallOp op) {
  return op->getNumOperands() == 1 && op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getResult(0).getType()) &&
         op->getOperand(0).getType() == op->getResult(0).getType();
}

bool CustomCallOp::isMarker() {
  StringRef target = getCallTargetName();
  return hasIdentityForm(*this) &&
         (isKnownMarker(target) || isDeclaredIdentity(*this, target));
}

bool CustomCallOp::isIdentity() {
  // The host transfers are identities but no markers: they move bytes.
  StringRef target = getCallTargetName();
  return isMarker() || (hasIdentityForm(*this) &&
                        (target == "MoveToHost" || target == "MoveToDevice"));
}

LogicalResult CustomCallOp::verify() {
  Attribute declared = getDeclaration(*this);
  if (!declared)
    return success();
  auto names = dyn_cast<ArrayAttr>(declared);
  if (!names || !llvm::all_of(names, llvm::IsaPred<StringAttr>))
    return emitOpError("the module's '")
           << kIdentityCustomCalls
           << "' must be an array of strings (custom call targets)";
  if (isDeclaredIdentity(*this, getCallTargetName()) && !hasIdentityForm(*this))
    return emitOpError("@")
           << getCallTargetName() << " is declared an identity ('"
           << kIdentityCustomCalls
           << "') but does not take one tensor and return one of its type";
  return success();
}

LogicalResult
CompositeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee =
      symbolTable.lookupNearestSymbolFrom(*this, getDecompositionAttr());
  if (!callee)
    return emitOpError("decomposition @")
           << getDecomposition() << " does not exist";
  auto fn = dyn_cast<FunctionOpInterface>(callee);
  if (!fn)
    return emitOpError("decomposition @")
           << getDecomposition() << " is not a function";
  if (TypeRange(fn.getArgumentTypes()) != getInputs().getTypes() ||
      TypeRange(fn.getResultTypes()) != getResultTypes())
    return emitOpError("types do not match decomposition @")
           << getDecomposition();
  return success();
}

//===----------------------------------------------------------------------===//
// OptimizationBarrierOp
//===----------------------------------------------------------------------===//

ParseResult OptimizationBarrierOp::parse(OpAsmParser &parser,
                                         OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalLParen()))
    return parser.parseRParen();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands) || parser.parseColon() ||
      parser.parseTypeList(types) ||
      parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  result.addTypes(types);
  return success();
}

void OptimizationBarrierOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs());
  if (getOperand().empty()) {
    printer << " ()";
    return;
  }
  printer << ' ' << getOperand() << " : ";
  llvm::interleaveComma(getOperand().getTypes(), printer);
}

LogicalResult OptimizationBarrierOp::verify() {
  if (TypeRange(getOperand().getTypes()) != TypeRange(getResultTypes()))
    return emitOpError("result types must equal the operand types");
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// replica_groups is a rank-2 table of device ids; -1 pads short groups.
static LogicalResult verifyReplicaGroups(Operation *op,
                                         DenseIntElementsAttr groups) {
  auto type = groups.getType();
  if (type.getRank() != 2)
    return op->emitOpError("replica_groups must have rank 2, got rank ")
           << type.getRank();
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t id : groups.getValues<int64_t>()) {
    if (id < -1)
      return op->emitOpError("replica_groups contains invalid id ") << id;
    if (id >= 0 && !seen.insert(id).second)
      return op->emitOpError("replica_groups contains ")
             << id << " more than once";
  }
  return success();
}

static LogicalResult verifyDimIndex(Operation *op, StringRef name, int64_t dim,
                                    Type type) {
  int64_t rank = cast<ShapedType>(type).getRank();
  if (dim < 0 || dim >= rank)
    return op->emitOpError()
           << name << " " << dim << " is out of range [0, " << rank << ")";
  return success();
}

/// collective_permute and collective_broadcast only move whole values between
/// devices, so the spec requires type(result) = type(operand) (C5 and C3);
/// without this check a device-local program could claim a reshaped copy.
static LogicalResult verifyResultTypeIsOperandType(Operation *op) {
  Type operandType = op->getOperand(0).getType();
  Type resultType = op->getResult(0).getType();
  if (operandType != resultType)
    return op->emitOpError("result type ")
           << resultType << " must equal the operand type " << operandType;
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (getOperands().size() != getNumResults())
    return emitOpError("expects one result per operand");
  for (auto [in, out] : llvm::zip_equal(getOperands(), getResults()))
    if (in.getType() != out.getType())
      return emitOpError("result types must equal the operand types");
  return verifyReplicaGroups(*this, getReplicaGroups());
}

LogicalResult AllGatherOp::verify() {
  if (getOperands().size() != getNumResults())
    return emitOpError("expects one result per operand");
  for (Value operand : getOperands())
    if (failed(verifyDimIndex(*this, "all_gather_dim", getAllGatherDim(),
                              operand.getType())))
      return failure();
  return verifyReplicaGroups(*this, getReplicaGroups());
}

LogicalResult ReduceScatterOp::verify() {
  if (failed(verifyDimIndex(*this, "scatter_dimension", getScatterDimension(),
                            getOperand().getType())))
    return failure();
  return verifyReplicaGroups(*this, getReplicaGroups());
}

LogicalResult AllToAllOp::verify() {
  // The I64Attr getter is unsigned; read the value signed.
  int64_t splitCount = getSplitCountAttr().getInt();
  if (splitCount <= 0)
    return emitOpError("split_count must be positive");
  for (Value operand : getOperands()) {
    if (failed(verifyDimIndex(*this, "split_dimension", getSplitDimension(),
                              operand.getType())) ||
        failed(verifyDimIndex(*this, "concat_dimension", getConcatDimension(),
                              operand.getType())))
      return failure();
    int64_t size =
        cast<ShapedType>(operand.getType()).getDimSize(getSplitDimension());
    if (!ShapedType::isDynamic(size) && size % splitCount != 0)
      return emitOpError("split dimension size ")
             << size << " is not divisible by split_count " << splitCount;
  }
  return verifyReplicaGroups(*this, getReplicaGroups());
}

/// source_target_pairs is an [N, 2] table of distinct sources and distinct
/// targets (collective_permute, send, recv).
static LogicalResult verifySourceTargetPairs(Operation *op,
                                             DenseIntElementsAttr pairs) {
  auto type = pairs.getType();
  if (type.getRank() != 2 || type.getDimSize(1) != 2)
    return op->emitOpError("source_target_pairs must have shape [N, 2]");
  llvm::SmallDenseSet<int64_t> sources, targets;
  SmallVector<int64_t> ids(pairs.getValues<int64_t>());
  for (size_t i = 0; i + 1 < ids.size(); i += 2) {
    if (ids[i] < 0 || ids[i + 1] < 0)
      return op->emitOpError(
          "source_target_pairs must not contain negative ids");
    if (!sources.insert(ids[i]).second)
      return op->emitOpError("source ") << ids[i] << " appears more than once";
    if (!targets.insert(ids[i + 1]).second)
      return op->emitOpError("target ")
             << ids[i + 1] << " appears more than once";
  }
  return success();
}

LogicalResult CollectivePermuteOp::verify() {
  if (failed(verifyResultTypeIsOperandType(*this)))
    return failure();
  return verifySourceTargetPairs(*this, getSourceTargetPairs());
}

LogicalResult CollectiveBroadcastOp::verify() {
  if (failed(verifyResultTypeIsOperandType(*this)))
    return failure();
  return verifyReplicaGroups(*this, getReplicaGroups());
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

/// infeed and recv return the values they read (tensors), then a token.
static LogicalResult verifyValuesThenToken(Operation *op) {
  TypeRange types = op->getResultTypes();
  if (types.empty() || !isa<TokenType>(types.back()))
    return op->emitOpError("last result must be a !stablehlo.token");
  for (Type type : types.drop_back())
    if (!isa<RankedTensorType>(type))
      return op->emitOpError("results before the token must be tensors, got ")
             << type;
  return success();
}

LogicalResult InfeedOp::verify() { return verifyValuesThenToken(*this); }

LogicalResult SendOp::verify() {
  if (std::optional<DenseIntElementsAttr> pairs = getSourceTargetPairs())
    return verifySourceTargetPairs(*this, *pairs);
  return success();
}

LogicalResult RecvOp::verify() {
  if (failed(verifyValuesThenToken(*this)))
    return failure();
  if (std::optional<DenseIntElementsAttr> pairs = getSourceTargetPairs())
    return verifySourceTargetPairs(*this, *pairs);
  return success();
}
