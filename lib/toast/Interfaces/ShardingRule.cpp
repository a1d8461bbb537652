//===- ShardingRule.cpp - Factor-based partitioning rules ----------------===//

#include "toast/Interfaces/ShardingRule.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

#include "toast/Interfaces/ShardingRuleOpInterface.cpp.inc"

namespace toast {

static int64_t findDim(ArrayRef<int64_t> dims, int64_t factor) {
  for (auto [d, f] : llvm::enumerate(dims))
    if (f == factor)
      return d;
  return kNoFactor;
}

int64_t ShardingRule::getOperandDim(unsigned operand, int64_t factor) const {
  return findDim(operandDims[operand], factor);
}

int64_t ShardingRule::getResultDim(unsigned result, int64_t factor) const {
  return findDim(resultDims[result], factor);
}

bool ShardingRule::spansDims(Operation *op, int64_t factor) const {
  int64_t size = factors[factor].size;
  auto spans = [&](TypeRange types, ArrayRef<SmallVector<int64_t>> dims) {
    for (auto [type, tensorDims] : llvm::zip(types, dims)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      for (auto [d, f] : llvm::enumerate(tensorDims))
        if (f == factor && (!tensor || tensor.getDimSize(d) != size))
          return false;
    }
    return true;
  };
  return spans(op->getOperandTypes(), operandDims) &&
         spans(op->getResultTypes(), resultDims);
}

LogicalResult ShardingRule::verify(
    llvm::function_ref<InFlightDiagnostic()> emitError) const {
  int64_t n = factors.size();
  SmallVector<bool> inResult(n, false);
  auto checkTensor = [&](ArrayRef<int64_t> dims, bool isResult,
                         unsigned index) -> LogicalResult {
    SmallVector<bool> seen(n, false);
    for (int64_t f : dims) {
      if (f == kNoFactor)
        continue;
      if (f < 0 || f >= n)
        return emitError() << "sharding rule: factor " << f
                           << " out of range in "
                           << (isResult ? "result " : "operand ") << index;
      if (seen[f])
        return emitError() << "sharding rule: factor " << f
                           << " maps two dimensions of "
                           << (isResult ? "result " : "operand ") << index;
      seen[f] = true;
      if (isResult)
        inResult[f] = true;
    }
    return success();
  };
  for (auto [i, dims] : llvm::enumerate(operandDims))
    if (failed(checkTensor(dims, false, i)))
      return failure();
  for (auto [i, dims] : llvm::enumerate(resultDims))
    if (failed(checkTensor(dims, true, i)))
      return failure();
  for (int64_t f = 0; f < n; ++f) {
    if (factors[f].size < 0)
      return emitError() << "sharding rule: factor " << f
                         << " has negative size";
    if (factors[f].kind == FactorKind::Parallel && !inResult[f])
      return emitError() << "sharding rule: parallel factor " << f
                         << " maps no result dimension";
    if (factors[f].kind == FactorKind::Reduction && inResult[f])
      return emitError() << "sharding rule: reduction factor " << f
                         << " maps a result dimension";
  }
  return success();
}

/// i, j, k, ..., z, then z1, z2, ...
static std::string factorName(int64_t f) {
  constexpr int64_t kLetters = 'z' - 'i' + 1;
  if (f < kLetters)
    return std::string(1, static_cast<char>('i' + f));
  return "z" + std::to_string(f - kLetters + 1);
}

void ShardingRule::print(llvm::raw_ostream &os) const {
  auto printTensors = [&](ArrayRef<SmallVector<int64_t>> tensors) {
    os << '(';
    llvm::interleaveComma(tensors, os, [&](ArrayRef<int64_t> dims) {
      os << '[';
      llvm::interleaveComma(dims, os, [&](int64_t f) {
        os << (f == kNoFactor ? std::string("_") : factorName(f));
      });
      os << ']';
    });
    os << ')';
  };
  printTensors(operandDims);
  os << "->";
  printTensors(resultDims);
  os << " {";
  llvm::interleaveComma(llvm::seq<int64_t>(0, factors.size()), os,
                        [&](int64_t f) {
                          os << factorName(f) << '=' << factors[f].size;
                        });
  os << '}';
  for (auto [kind, label] : {std::pair{FactorKind::Reduction, "reduction"},
                             std::pair{FactorKind::NotTileable,
                                       "not_tileable"}}) {
    SmallVector<int64_t> matching;
    for (auto [f, factor] : llvm::enumerate(factors))
      if (factor.kind == kind)
        matching.push_back(f);
    if (matching.empty())
      continue;
    os << ' ' << label << "={";
    llvm::interleaveComma(matching, os,
                          [&](int64_t f) { os << factorName(f); });
    os << '}';
  }
}

std::string ShardingRule::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

static SmallVector<int64_t> unmappedDims(Type type) {
  if (auto shaped = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(shaped.getRank(), kNoFactor);
  return {};
}

ShardingRuleBuilder::ShardingRuleBuilder(Operation *op) : op(op) {
  for (Type type : op->getOperandTypes())
    rule.operandDims.push_back(unmappedDims(type));
  for (Type type : op->getResultTypes())
    rule.resultDims.push_back(unmappedDims(type));
}

int64_t ShardingRuleBuilder::addFactor(ArrayRef<int64_t> operandDims,
                                       ArrayRef<int64_t> resultDims,
                                       int64_t size,
                                       std::optional<FactorKind> kind) {
  int64_t factor = rule.factors.size();
  bool inResult = false;
  for (auto [i, d] : llvm::enumerate(operandDims))
    if (d != kNoFactor && i < rule.operandDims.size() &&
        d < static_cast<int64_t>(rule.operandDims[i].size()))
      rule.operandDims[i][d] = factor;
  for (auto [i, d] : llvm::enumerate(resultDims))
    if (d != kNoFactor && i < rule.resultDims.size() &&
        d < static_cast<int64_t>(rule.resultDims[i].size())) {
      rule.resultDims[i][d] = factor;
      inResult = true;
    }
  rule.factors.push_back(
      {size, kind.value_or(inResult ? FactorKind::Parallel
                                    : FactorKind::Reduction)});
  return factor;
}

ShardingRuleBuilder &ShardingRuleBuilder::addPointwise() {
  if (rule.resultDims.empty())
    return *this;
  size_t rank = rule.resultDims[0].size();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  for (size_t d = 0; d < rank; ++d) {
    int64_t factor = rule.factors.size();
    for (auto &dims : rule.operandDims)
      if (dims.size() == rank)
        dims[d] = factor;
    for (auto &dims : rule.resultDims)
      if (dims.size() == rank)
        dims[d] = factor;
    rule.factors.push_back({resultType.getDimSize(d), FactorKind::Parallel});
  }
  return *this;
}

std::optional<ShardingRule> getShardingRule(Operation *op) {
  if (auto iface = dyn_cast<ShardingRuleOpInterface>(op))
    return iface.getShardingRule();
  return std::nullopt;
}

} // namespace toast
