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

/// The dimension of a tensor that `factor` maps as a minor factor.
static int64_t findMinorDim(ArrayRef<MinorFactor> minors, bool isResult,
                            unsigned tensor, int64_t factor) {
  for (const MinorFactor &m : minors)
    if (m.isResult == isResult && m.tensor == tensor && m.factor == factor)
      return m.dim;
  return kNoFactor;
}

int64_t ShardingRule::getOperandDim(unsigned operand, int64_t factor) const {
  int64_t dim = findDim(operandDims[operand], factor);
  return dim != kNoFactor ? dim
                          : findMinorDim(minorFactors, false, operand, factor);
}

int64_t ShardingRule::getResultDim(unsigned result, int64_t factor) const {
  int64_t dim = findDim(resultDims[result], factor);
  return dim != kNoFactor ? dim
                          : findMinorDim(minorFactors, true, result, factor);
}

SmallVector<int64_t, 2>
ShardingRule::getDimFactors(bool isResult, unsigned tensor, int64_t dim) const {
  const auto &dims = isResult ? resultDims : operandDims;
  SmallVector<int64_t, 2> list;
  if (tensor >= dims.size() || dim < 0 ||
      dim >= static_cast<int64_t>(dims[tensor].size()) ||
      dims[tensor][dim] == kNoFactor)
    return list;
  list.push_back(dims[tensor][dim]);
  for (const MinorFactor &m : minorFactors)
    if (m.isResult == isResult && m.tensor == tensor && m.dim == dim)
      list.push_back(m.factor);
  return list;
}

bool ShardingRule::isMinorFactor(int64_t factor) const {
  return llvm::any_of(minorFactors,
                      [&](const MinorFactor &m) { return m.factor == factor; });
}

bool ShardingRule::canTileNext(int64_t factor,
                               function_ref<int64_t(int64_t)> tilesOf) const {
  for (const MinorFactor &minor : minorFactors) {
    SmallVector<int64_t, 2> list =
        getDimFactors(minor.isResult, minor.tensor, minor.dim);
    if (minor.factor != list[1] || !llvm::is_contained(list, factor))
      continue; // Visit each compound dimension once, through its first minor.
    bool before = true;
    for (int64_t f : list) {
      if (f == factor) {
        before = false;
        continue;
      }
      if (before ? tilesOf(f) != factors[f].size : tilesOf(f) != 1)
        return false;
    }
  }
  return true;
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
  // A tensor's factors: its dims' major factors, then its minor factors.
  auto tensorFactors = [&](ArrayRef<int64_t> dims, bool isResult,
                           unsigned index) {
    SmallVector<int64_t> all(dims);
    for (const MinorFactor &m : minorFactors)
      if (m.isResult == isResult && m.tensor == index)
        all.push_back(m.factor);
    return all;
  };
  for (auto [i, dims] : llvm::enumerate(operandDims))
    if (failed(checkTensor(tensorFactors(dims, false, i), false, i)))
      return failure();
  for (auto [i, dims] : llvm::enumerate(resultDims))
    if (failed(checkTensor(tensorFactors(dims, true, i), true, i)))
      return failure();
  for (const MinorFactor &m : minorFactors) {
    const auto &dims = m.isResult ? resultDims : operandDims;
    if (m.tensor >= dims.size() || m.dim < 0 ||
        m.dim >= static_cast<int64_t>(dims[m.tensor].size()) ||
        dims[m.tensor][m.dim] == kNoFactor)
      return emitError() << "sharding rule: minor factor " << m.factor
                         << " of a dimension that maps no major factor";
    if (factors[m.factor].kind != FactorKind::Parallel)
      return emitError() << "sharding rule: minor factor " << m.factor
                         << " is not parallel";
  }
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
  auto printTensors = [&](ArrayRef<SmallVector<int64_t>> tensors,
                          bool isResult) {
    os << '(';
    llvm::interleaveComma(llvm::enumerate(tensors), os, [&](auto tensor) {
      os << '[';
      llvm::interleaveComma(llvm::seq<int64_t>(0, tensor.value().size()), os,
                            [&](int64_t d) {
                              SmallVector<int64_t, 2> list =
                                  getDimFactors(isResult, tensor.index(), d);
                              if (list.empty())
                                os << '_';
                              for (int64_t f : list)
                                os << factorName(f);
                            });
      os << ']';
    });
    os << ')';
  };
  printTensors(operandDims, false);
  os << "->";
  printTensors(resultDims, true);
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

int64_t ShardingRuleBuilder::addCompoundFactor(int64_t operandDim,
                                               int64_t resultDim,
                                               int64_t size) {
  int64_t factor = rule.factors.size();
  rule.factors.push_back({size, FactorKind::Parallel});
  auto map = [&](SmallVector<int64_t> &dims, bool isResult, int64_t dim) {
    if (dim == kNoFactor || dim >= static_cast<int64_t>(dims.size()))
      return;
    if (dims[dim] == kNoFactor)
      dims[dim] = factor;
    else
      rule.minorFactors.push_back({isResult, 0, dim, factor});
  };
  if (!rule.operandDims.empty())
    map(rule.operandDims[0], false, operandDim);
  if (!rule.resultDims.empty())
    map(rule.resultDims[0], true, resultDim);
  return factor;
}

std::optional<ShardingRule> getShardingRule(Operation *op) {
  if (auto iface = dyn_cast<ShardingRuleOpInterface>(op))
    return iface.getShardingRule();
  return std::nullopt;
}

} // namespace toast
