//===- Environment.h - What a sharding search acts on -----------*- C++ -*-===//
//
// The contract between the search algorithms (MCTS, random search; Mcts.h)
// and the problems they search (the NDA action space of TOAST §4.2 in
// ShardingSpace.h, the argument-only AutoMap-style space in Baselines.h).
//
// A state is the sharding of every node of the NDA dimension graph (TOAST
// §4.3): a mask of mesh axes per node, never the action sequence, so every
// order of the same actions reaches one state and one transposition-table
// entry. Within one dimension, axes nest in mesh order.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_ENVIRONMENT_H
#define TOAST_SEARCH_ENVIRONMENT_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace toast::search {

/// Bit i set: the node is sharded on mesh axis i (mesh order, at most 32).
using AxisMask = uint32_t;

/// The search state: one AxisMask per dimension-graph node.
struct SearchState {
  std::vector<AxisMask> nodeAxes;

  /// A 64-bit hash of nodeAxes (FNV-1a over the non-zero entries and their
  /// positions), stable across runs and platforms.
  uint64_t hash() const {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0, e = nodeAxes.size(); i != e; ++i) {
      if (!nodeAxes[i])
        continue;
      for (uint64_t word :
           {static_cast<uint64_t>(i), static_cast<uint64_t>(nodeAxes[i])}) {
        h ^= word;
        h *= 1099511628211ull;
      }
    }
    return h;
  }
  /// A second, independent 64-bit hash (a multiply-xorshift mix of each
  /// non-zero entry with its position). Tables key states by both hashes:
  /// keeping whole states would cost megabytes per entry on large models,
  /// and one 64-bit hash alone could merge two states.
  uint64_t hash2() const {
    uint64_t h = 0x243f6a8885a308d3ull;
    for (size_t i = 0, e = nodeAxes.size(); i != e; ++i) {
      if (!nodeAxes[i])
        continue;
      uint64_t x = (static_cast<uint64_t>(i) << 32) ^ nodeAxes[i];
      x ^= x >> 33;
      x *= 0xff51afd7ed558ccdull;
      x ^= x >> 33;
      x *= 0xc4ceb9fe1a85ec53ull;
      x ^= x >> 33;
      h = (h ^ x) * 0x9e3779b97f4a7c15ull + 0x7f4a7c15ull;
    }
    return h;
  }
  /// Both hashes: the key of transposition and cost tables.
  std::pair<uint64_t, uint64_t> key() const { return {hash(), hash2()}; }
  bool operator==(const SearchState &other) const {
    return nodeAxes == other.nodeAxes;
  }
  bool operator!=(const SearchState &other) const { return !(*this == other); }
};

/// A search problem. Actions are numbered 0..getNumActions()-1; `stop` is
/// not an action of the environment (the search adds it).
class SearchEnvironment {
public:
  virtual ~SearchEnvironment() = default;

  virtual unsigned getNumActions() const = 0;
  /// The action in words, e.g. "shard color 7 (batch: 31 dims) on axis B".
  virtual std::string describeAction(unsigned action) const = 0;
  /// The state the search starts from (the program as previous tactics
  /// left it; all zero for an unpartitioned program).
  virtual SearchState getInitialState() const = 0;
  /// Whether `action` can be applied in `state` (axis not yet used on the
  /// color's dimensions, sizes divisible, ...).
  virtual bool isLegal(const SearchState &state, unsigned action) const = 0;
  /// Applies a legal action (mirrored over grouped arguments, if any).
  virtual void apply(SearchState &state, unsigned action) const = 0;
  /// Mesh axes the actions use (0: the environment has no notion of axes).
  virtual unsigned getNumAxes() const { return 0; }
  /// The action that does what `action` does, on mesh axis `axis` instead;
  /// -1 if there is none (pruned, or sizes do not divide). Lets a local
  /// search move a whole strategy to other axes in one step: a strategy on
  /// the wrong axes (axes differ in size and bandwidth) is a local optimum
  /// that no single-action change leaves.
  virtual int getActionOnAxis(unsigned action, unsigned axis) const {
    return -1;
  }
  /// C(s) = RT(s) + MP(s) (TOAST §4.5), lower is better; 1.0 + MP(s0) for
  /// the initial state of an unpartitioned program. Must be safe to call
  /// concurrently from several threads on distinct states.
  virtual double cost(const SearchState &state) const = 0;
  /// The relative margin of costBelow: a stopped state's value is at least
  /// `bound` times (1 + this), so that it never ties with the bound (a tie
  /// in fewer actions would win).
  static constexpr double kBoundMargin = 1e-9;
  /// cost(state) when it is below `bound`; otherwise any value from
  /// atLeast(bound) to cost(state), which an environment may find without
  /// pricing the whole state. A climb only asks whether a neighbour beats
  /// its best, and most do not.
  virtual double costBelow(const SearchState &state, double bound) const {
    return cost(state);
  }
  /// The least value costBelow may return for a state it stops at.
  static double atLeast(double bound) { return bound * (1 + kBoundMargin); }
  /// What pricing one state costs, relative to other environments: the
  /// number of ops cost() walks (0: unknown). The search's patience grows
  /// where states are cheap (SearchOptions::patienceWork).
  virtual uint64_t getStateWork() const { return 0; }
};

} // namespace toast::search

#endif // TOAST_SEARCH_ENVIRONMENT_H
