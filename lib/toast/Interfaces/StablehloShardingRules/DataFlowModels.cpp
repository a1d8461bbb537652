//===- DataFlowModels.cpp - Region data flow of while, case and if -------===//
//
// DataFlowEdgeOpInterface models (control-flow-design.md §2.3 A). A
// `while` ties operand i, its condition's and body's block argument i, the
// body's return operand i and result i; `case`/`if` tie every branch's
// return operand i to result i. The counted-loop matcher recognizes the
// counter pattern JAX emits for `fori_loop` and `scan`:
// `compare <dir> %counter, constant` in the condition and
// `add/subtract %counter, constant` in the body, with a constant init; a
// condition that also has other terms (`i != n and not all(done)`, a
// decode loop that stops early) gives a maximum trip count.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;

namespace toast::rules {
namespace {

using namespace stablehlo;

/// Whether `v` is a value of integer type `element` (arithmetic on a
/// narrower type wraps, so a fold that leaves it is not the program's).
bool fitsIn(int64_t v, Type element) {
  unsigned width = element.getIntOrFloatBitWidth();
  bool isUnsigned = element.isUnsignedInteger() || width == 1;
  if (width >= 64)
    return !isUnsigned || v >= 0;
  if (isUnsigned)
    return v >= 0 && v < (int64_t(1) << width);
  return v >= -(int64_t(1) << (width - 1)) && v < (int64_t(1) << (width - 1));
}

/// The value of a scalar (or splat) integer computed from constants: a
/// constant, or add/subtract/multiply/convert/reshape/broadcast of such
/// values (JAX writes a loop's start as `7 + 1` rather than `8`), when it
/// fits in its type (booleans and unsigned integers read as such). `depth`
/// bounds the walk.
std::optional<int64_t> getConstantInt(Value value, unsigned depth = 8) {
  Operation *def = value.getDefiningOp();
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!def || depth == 0 || !type || !type.getElementType().isInteger())
    return std::nullopt;
  Type element = type.getElementType();
  std::optional<int64_t> result;
  if (auto constant = dyn_cast<ConstantOp>(def)) {
    auto elements = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!elements || !elements.isSplat())
      return std::nullopt;
    APInt v = elements.getSplatValue<APInt>();
    bool isUnsigned = element.isUnsignedInteger() || v.getBitWidth() == 1;
    if (isUnsigned && v.getActiveBits() > 63)
      return std::nullopt;
    return isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                      : v.getSExtValue();
  }
  if (isa<ConvertOp, ReshapeOp, BroadcastInDimOp>(def)) {
    result = getConstantInt(def->getOperand(0), depth - 1);
  } else if (isa<AddOp, SubtractOp, MulOp>(def)) {
    std::optional<int64_t> a = getConstantInt(def->getOperand(0), depth - 1);
    std::optional<int64_t> b = getConstantInt(def->getOperand(1), depth - 1);
    if (!a || !b)
      return std::nullopt;
    if (isa<AddOp>(def))
      result = llvm::checkedAdd(*a, *b);
    else if (isa<SubtractOp>(def))
      result = llvm::checkedSub(*a, *b);
    else
      result = llvm::checkedMul(*a, *b);
  }
  if (!result || !fitsIn(*result, element))
    return std::nullopt;
  return result;
}

/// The counter's step: the body's next counter is `counter +/- constant`.
std::optional<int64_t> getStep(Block &body, unsigned index) {
  Value next = body.getTerminator()->getOperand(index);
  Operation *update = next.getDefiningOp();
  if (!update || update->getNumOperands() != 2)
    return std::nullopt;
  Value counter = body.getArgument(index);
  if (isa<AddOp>(update)) {
    if (update->getOperand(0) == counter)
      return getConstantInt(update->getOperand(1));
    if (update->getOperand(1) == counter)
      return getConstantInt(update->getOperand(0));
  } else if (isa<SubtractOp>(update) && update->getOperand(0) == counter) {
    if (std::optional<int64_t> sub = getConstantInt(update->getOperand(1)))
      return llvm::checkedMul(*sub, int64_t(-1));
  }
  return std::nullopt;
}

/// Iterations of `counter <dir> limit` from `distance` = limit - init, with
/// step `s` (not 0): ceil(distance / s) for a strict bound, one more than
/// the floor for a closed one, the exact quotient for `!=`; none when the
/// counter moves away from the limit or a count would overflow.
std::optional<int64_t> countIterations(ComparisonDirection dir,
                                       int64_t distance, int64_t s) {
  using Dir = ComparisonDirection;
  if (s == -1 && distance == std::numeric_limits<int64_t>::min())
    return std::nullopt; // The quotient overflows.
  // For distance and s of one sign the quotient is positive, so truncation
  // is the floor; |s| >= 2 whenever there is a remainder, so q + 1 fits.
  int64_t q = distance / s, r = distance % s;
  bool up = s > 0;
  switch (dir) {
  case Dir::LT:
  case Dir::GT:
    if (up != (dir == Dir::LT))
      return std::nullopt;
    return (up ? distance > 0 : distance < 0) ? q + (r != 0) : 0;
  case Dir::LE:
  case Dir::GE:
    if (up != (dir == Dir::LE))
      return std::nullopt;
    if (up ? distance < 0 : distance > 0)
      return 0;
    return llvm::checkedAdd(q, int64_t(1));
  case Dir::NE:
    if (r != 0 || q < 0)
      return std::nullopt;
    return q;
  default:
    return std::nullopt;
  }
}

ComparisonDirection swapDirection(ComparisonDirection dir) {
  using Dir = ComparisonDirection;
  switch (dir) {
  case Dir::LT:
    return Dir::GT;
  case Dir::LE:
    return Dir::GE;
  case Dir::GT:
    return Dir::LT;
  case Dir::GE:
    return Dir::LE;
  default:
    return dir;
  }
}

/// The direction of `!(a <dir> b)`.
ComparisonDirection negateDirection(ComparisonDirection dir) {
  using Dir = ComparisonDirection;
  switch (dir) {
  case Dir::LT:
    return Dir::GE;
  case Dir::LE:
    return Dir::GT;
  case Dir::GT:
    return Dir::LE;
  case Dir::GE:
    return Dir::LT;
  case Dir::EQ:
    return Dir::NE;
  case Dir::NE:
    return Dir::EQ;
  }
  return dir;
}

/// A condition split into the terms that must all hold for the loop to go
/// on: integer comparisons (with their direction as the term reads) and a
/// count of the other terms.
struct Conjuncts {
  SmallVector<std::pair<CompareOp, ComparisonDirection>> compares;
  unsigned others = 0;
};

bool isBoolean(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  return type && type.getElementType().isInteger(1);
}

/// Adds the terms of `value` (of `!value` when `negated`) to `terms`:
/// through `not`, `and` (or `or` under a negation, De Morgan) and a
/// comparison of a boolean with a constant, as JAX writes
/// `while i != n and not all(done)`.
void collectConjuncts(Value value, bool negated, Conjuncts &terms,
                      unsigned depth = 16) {
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0 || !isBoolean(value)) {
    ++terms.others;
    return;
  }
  if (isa<NotOp>(def))
    return collectConjuncts(def->getOperand(0), !negated, terms, depth - 1);
  if ((isa<AndOp>(def) && !negated) || (isa<OrOp>(def) && negated)) {
    collectConjuncts(def->getOperand(0), negated, terms, depth - 1);
    collectConjuncts(def->getOperand(1), negated, terms, depth - 1);
    return;
  }
  auto compare = dyn_cast<CompareOp>(def);
  if (!compare) {
    ++terms.others;
    return;
  }
  ComparisonDirection dir = compare.getComparisonDirection();
  if (isBoolean(compare.getLhs())) {
    // `b == true`, `b != false` are `b`; `b == false`, `b != true` are `!b`.
    Value b = compare.getLhs();
    std::optional<int64_t> constant = getConstantInt(compare.getRhs());
    if (!constant) {
      b = compare.getRhs();
      constant = getConstantInt(compare.getLhs());
    }
    bool eq = dir == ComparisonDirection::EQ;
    if (!constant || (!eq && dir != ComparisonDirection::NE)) {
      ++terms.others;
      return;
    }
    bool same = eq == (*constant != 0);
    return collectConjuncts(b, same ? negated : !negated, terms, depth - 1);
  }
  terms.compares.push_back({compare, negated ? negateDirection(dir) : dir});
}

/// Whether the counter stays within its type, as `compare` reads it (signed
/// or unsigned), from `init` to `init + trips * step`, the value on which
/// the condition first fails. Otherwise the body's add wraps before the
/// condition fails, the condition sees values the count did not assume,
/// and the loop may never end (an i8 counter under `i <= 127`). The
/// arithmetic is wider than any counter, so it cannot wrap itself.
bool staysInRange(CompareOp compare, int64_t init, int64_t limit, int64_t step,
                  int64_t trips) {
  Type element = getElementTypeOrSelf(compare.getLhs().getType());
  bool isUnsigned = element.isUnsignedInteger();
  if (std::optional<ComparisonType> kind = compare.getCompareType()) {
    if (*kind == ComparisonType::SIGNED || *kind == ComparisonType::UNSIGNED)
      isUnsigned = *kind == ComparisonType::UNSIGNED;
    else if (*kind != ComparisonType::NOTYPE)
      return false;
  }
  unsigned width = element.getIntOrFloatBitWidth();
  constexpr unsigned wide = 2 * 64 + 2;
  APInt lo = isUnsigned ? APInt::getZero(wide)
                        : APInt::getSignedMinValue(width).sext(wide);
  APInt hi = isUnsigned ? APInt::getMaxValue(width).zext(wide)
                        : APInt::getSignedMaxValue(width).sext(wide);
  auto inRange = [&](const APInt &v) { return v.sge(lo) && v.sle(hi); };
  APInt last = APInt(wide, init, /*isSigned=*/true) +
               APInt(wide, trips, /*isSigned=*/true) *
                   APInt(wide, step, /*isSigned=*/true);
  // init and limit are read in the element type's signedness; a compare
  // that reads them the other way sees other values unless they fit both.
  return inRange(APInt(wide, init, /*isSigned=*/true)) &&
         inRange(APInt(wide, limit, /*isSigned=*/true)) && inRange(last);
}

/// The loop's facts if `compare` (read with direction `dir`) compares a
/// carried counter with a constant.
std::optional<LoopFacts> matchCounter(WhileOp loop, CompareOp compare,
                                      ComparisonDirection dir) {
  Block &cond = loop.getCond().front();
  Block &body = loop.getBody().front();
  // counter <dir> limit, or limit <dir> counter (swap the direction).
  Value counter = compare.getLhs();
  std::optional<int64_t> limit = getConstantInt(compare.getRhs());
  if (!limit) {
    counter = compare.getRhs();
    limit = getConstantInt(compare.getLhs());
    dir = swapDirection(dir);
  }
  auto arg = dyn_cast<BlockArgument>(counter);
  if (!limit || !arg || arg.getOwner() != &cond ||
      arg.getArgNumber() >= body.getNumArguments() ||
      arg.getArgNumber() >= loop->getNumOperands())
    return std::nullopt;
  unsigned index = arg.getArgNumber();
  std::optional<int64_t> init = getConstantInt(loop->getOperand(index));
  std::optional<int64_t> step = getStep(body, index);
  if (!init || !step || *step == 0)
    return std::nullopt;
  std::optional<int64_t> distance = llvm::checkedSub(*limit, *init);
  std::optional<int64_t> trips =
      distance ? countIterations(dir, *distance, *step) : std::nullopt;
  // The condition runs trips + 1 times (getRegionRunCount).
  if (!trips || *trips == std::numeric_limits<int64_t>::max() ||
      !staysInRange(compare, *init, *limit, *step, *trips))
    return std::nullopt;
  return LoopFacts{index, *init, *step, *trips};
}

/// The counted term that ends the loop first. With other terms in the
/// condition (an early exit such as "every sequence is done") the loop may
/// end sooner: its trip count is then a maximum (`earlyExit`).
std::optional<LoopFacts> matchCountedLoop(WhileOp loop) {
  if (loop.getCond().empty() || loop.getBody().empty())
    return std::nullopt;
  Operation *condReturn = loop.getCond().front().getTerminator();
  if (condReturn->getNumOperands() != 1)
    return std::nullopt;
  Conjuncts terms;
  collectConjuncts(condReturn->getOperand(0), /*negated=*/false, terms);
  std::optional<LoopFacts> first;
  unsigned uncounted = terms.others;
  for (auto [compare, dir] : terms.compares) {
    std::optional<LoopFacts> facts = matchCounter(loop, compare, dir);
    if (!facts)
      ++uncounted;
    else if (!first || facts->tripCount < first->tripCount)
      first = facts;
  }
  if (first)
    first->earlyExit = uncounted > 0;
  return first;
}

struct WhileModel
    : DataFlowEdgeOpInterface::ExternalModel<WhileModel, WhileOp> {
  void getEdgeSources(Operation *op, unsigned edge,
                      SmallVectorImpl<OpOperand *> &sources) const {
    sources.push_back(&op->getOpOperand(edge));
    Region &body = cast<WhileOp>(op).getBody();
    if (!body.empty() && edge < body.front().getTerminator()->getNumOperands())
      sources.push_back(&body.front().getTerminator()->getOpOperand(edge));
  }
  void getEdgeTargets(Operation *op, unsigned edge,
                      SmallVectorImpl<Value> &targets) const {
    targets.push_back(op->getResult(edge));
    for (Region &region : op->getRegions())
      if (!region.empty() && edge < region.front().getNumArguments())
        targets.push_back(region.front().getArgument(edge));
  }
  std::optional<int64_t> getRegionRunCount(Operation *op,
                                           unsigned region) const {
    std::optional<LoopFacts> facts = getLoopFacts(op);
    if (!facts)
      return std::nullopt;
    // The condition runs once more than the body.
    return region == 0 ? facts->tripCount + 1 : facts->tripCount;
  }
  std::optional<LoopFacts> getLoopFacts(Operation *op) const {
    return matchCountedLoop(cast<WhileOp>(op));
  }
};

/// case and if: result i is whichever branch's return operand i ran.
template <typename OpT>
struct BranchModel
    : DataFlowEdgeOpInterface::ExternalModel<BranchModel<OpT>, OpT> {
  void getEdgeSources(Operation *op, unsigned edge,
                      SmallVectorImpl<OpOperand *> &sources) const {
    for (Region &branch : op->getRegions()) {
      if (branch.empty())
        continue;
      Operation *ret = branch.front().getTerminator();
      if (edge < ret->getNumOperands())
        sources.push_back(&ret->getOpOperand(edge));
    }
  }
  void getEdgeTargets(Operation *op, unsigned edge,
                      SmallVectorImpl<Value> &targets) const {
    targets.push_back(op->getResult(edge));
  }
};

} // namespace

void attachDataFlowModels(MLIRContext &ctx) {
  WhileOp::attachInterface<WhileModel>(ctx);
  CaseOp::attachInterface<BranchModel<CaseOp>>(ctx);
  IfOp::attachInterface<BranchModel<IfOp>>(ctx);
}

} // namespace toast::rules
