//===- NamedDimensionAnalysis.h - TOAST named dimensions --------*- C++ -*-===//
//
// The named dimension analysis (NDA) of the TOAST paper, section 3, over a
// function (and the functions it calls) or a module.
//
//  * Every dimension of every value definition (op result, block argument)
//    and of every use (op operand) gets a fresh *name*.
//  * Identities I come from the sharding rules only (toast::getShardingRule):
//    the names of all operand and result dims mapped by one tileable factor
//    are identified. Ops without a rule are opaque (no identities).
//    Not-tileable factors identify nothing and their dims are *blocked*.
//  * The map M links the name of definition dim d to the name of each use's
//    dim d.
//  * Region data flow is identified with I. Each tied class of a loop or
//    conditional (toast::TiedValues: a while's operand, cond/body block
//    arguments, body return operand and result i; every case/if branch's
//    return operand i and result i) is one name per dim. func.call
//    operands/results are identified with the callee's arguments/returned
//    values (context-insensitively). func.return operands get no use names;
//    terminators, calls and region ops are never opaque.
//  * Names, identities and M cover every partitionable block (function
//    bodies and the regions of while/case/if, recursively; see
//    toast::walkProgram), so a loop body's dims join the colors of the
//    values it carries and captures.
//  * *Nodes* of the dimension graph = classes of names under I; M gives its
//    directed edges. *Colors* = classes under I and M.
//  * A *conflict* = two different nodes of one color annotating the same
//    definition or use (deduplicated by node pair). Two conflicts are
//    *compatible* when they form a box: (N,O) on a definition, (L,R) on a use
//    of it, N->L and O->R, and no directed path across (N ~> R or O ~> L,
//    figure 6). Paths do not go around loops: a body's names stand for every
//    iteration, so a path from a body's yield back into the body would join
//    dims of different iterations. One exception: a definition that depends
//    on no function argument (an iota/compare mask, a broadcast constant)
//    and carries conflicting uses at several places is *communication-free*:
//    each use can materialize it in its own layout without collectives, so
//    its box constraints do not apply (otherwise the causal mask, computed
//    once and used by every layer, would chain all layers into one set).
//    Compatibility sets are the transitive closure, each with two
//    resolutions.
//  * Isomorphic compatibility sets (repeated layers, section 3.6) share one
//    resolution bit. Isomorphism is decided by an exact comparison of
//    canonical forms (node positions, M edges, conflicts with the endpoint
//    bit 0 selects); a structural hash only buckets the candidates.
//    Function arguments of the entry function are grouped by keys built from
//    their uses (section 4.4).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_ANALYSIS_NAMEDDIMENSIONANALYSIS_H
#define TOAST_ANALYSIS_NAMEDDIMENSIONANALYSIS_H

#include "toast/Interfaces/ShardingRule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>
#include <vector>

namespace toast {

class TiedValues;

/// Functions reachable from `root` through func.call (root first).
llvm::SmallVector<mlir::func::FuncOp> collectCallees(mlir::func::FuncOp root);

/// Construction options of the analysis.
struct NdaOptions {
  /// Bits of the structural hash used to bucket compatibility sets before
  /// their canonical forms are compared exactly. Tests set 0 to put every set
  /// in one bucket (every pair collides) and check that only isomorphic sets
  /// merge.
  unsigned signatureBits = 64;
};

class NamedDimensionAnalysis {
public:
  /// A definition or use that carries names (one per tensor dimension).
  struct Site {
    mlir::Value value;              ///< The value defined or used.
    mlir::OpOperand *use = nullptr; ///< Set for uses.
    unsigned firstName = 0;
    unsigned rank = 0;
    /// Names of the minor parts of split dims (see Name::part), contiguous
    /// from firstMinor, by dim then part.
    unsigned firstMinor = 0;
    unsigned numMinor = 0;
    bool isUse() const { return use != nullptr; }
  };
  /// A dimension name.
  struct Name {
    unsigned site = 0;
    unsigned dim = 0;
    int64_t size = 0;     ///< Factor size for mapped dims, else dim size.
    bool blocked = false; ///< Unmapped or not-tileable in a ruled op.
    /// 0 for a dim's own name; k > 0 for the k-th minor part of a *split*
    /// dim: a dim whose values are merged from several factors by a
    /// reshape (the B*S of a flatten has parts B and S, sizes B and S; its
    /// part-0 name then has the size of the major part).
    unsigned part = 0;
  };
  struct Conflict {
    unsigned a = 0, b = 0; ///< Nodes, a < b.
    unsigned color = 0;
    unsigned firstSite = 0; ///< A site where it occurs.
    unsigned numSites = 0;
    unsigned set = 0;    ///< Compatibility set.
    bool parity = false; ///< Orientation relative to the set.
  };
  struct CompatibilitySet {
    llvm::SmallVector<unsigned> conflicts;
    unsigned bit = 0;       ///< Resolution bit after isomorphism merging.
    bool flip = false;      ///< Bit value b selects resolution b ^ flip.
    bool consistent = true; ///< No odd cycle among box constraints.
    uint64_t signature = 0; ///< Structural hash bucketing the merge.
  };
  /// A compatibility set up to renumbering of its nodes: nodes in canonical
  /// order, each described by the positions of its names (op, operand or
  /// result number, dim, size, rank); M edges and conflicts between them as
  /// canonical indices. Two sets with equal forms are isomorphic, and the
  /// index correspondence maps conflicts and their bit-0 choices onto each
  /// other.
  struct CanonicalForm {
    std::vector<std::string> nodes;
    std::vector<std::pair<unsigned, unsigned>> edges;
    /// Per conflict, in canonical order: endpoints (smaller index first) and
    /// the endpoint that resolution bit value 0 shards.
    std::vector<std::array<unsigned, 3>> conflicts;
    bool consistent = true;
    bool operator==(const CanonicalForm &o) const {
      return nodes == o.nodes && edges == o.edges && conflicts == o.conflicts &&
             consistent == o.consistent;
    }
  };

  /// Analyses `func` and every function it calls.
  explicit NamedDimensionAnalysis(mlir::func::FuncOp func,
                                  NdaOptions options = NdaOptions());
  /// Analyses every function of the module; the entry function (argument
  /// groups) is the public `main`, else the first public function.
  explicit NamedDimensionAnalysis(mlir::ModuleOp module,
                                  NdaOptions options = NdaOptions());
  /// For getAnalysis<>: dispatches on FuncOp / ModuleOp.
  explicit NamedDimensionAnalysis(mlir::Operation *op);

  // --- Sizes -------------------------------------------------------------
  unsigned getNumNames() const { return names.size(); }
  unsigned getNumNodes() const { return nodeColor.size(); }
  unsigned getNumColors() const { return colorStart.size() - 1; }
  unsigned getNumConflicts() const { return conflicts.size(); }
  unsigned getNumEdges() const { return numEdges; }
  unsigned getNumSets() const { return sets.size(); }
  unsigned getNumResolutionBits() const { return numBits; }
  unsigned getNumOpaqueOps() const { return numOpaqueOps; }
  mlir::func::FuncOp getEntry() const { return entry; }

  // --- Names, nodes, colors ---------------------------------------------
  llvm::ArrayRef<Site> getSites() const { return sites; }
  const Name &getName(unsigned n) const { return names[n]; }
  unsigned getNode(unsigned name) const { return nameNode[name]; }
  unsigned getColorOfName(unsigned name) const {
    return nodeColor[nameNode[name]];
  }
  unsigned getColorOfNode(unsigned node) const { return nodeColor[node]; }
  /// Site of a definition / use, or -1 if it carries no names.
  int getDefSite(mlir::Value v) const;
  int getUseSite(mlir::OpOperand &use) const;
  /// Names of dim `dim` of a site, major part first (one name unless the
  /// dim is split).
  llvm::SmallVector<unsigned, 2> getDimNames(unsigned site, unsigned dim) const;
  /// Every name of a site: its dims' names, then the minor parts.
  llvm::SmallVector<unsigned, 4> getSiteNames(unsigned site) const;
  /// Colors of the dims of a value's definition (empty if none).
  llvm::SmallVector<unsigned> getColors(mlir::Value v) const;
  /// Names of a color (definition and use dims), O(1).
  llvm::ArrayRef<unsigned> getNamesOfColor(unsigned color) const {
    return llvm::ArrayRef(colorNames)
        .slice(colorStart[color], colorStart[color + 1] - colorStart[color]);
  }
  /// Nodes (dimension graph) of a color.
  llvm::ArrayRef<unsigned> getNodesOfColor(unsigned color) const {
    return llvm::ArrayRef(colorNodes)
        .slice(colorNodeStart[color],
               colorNodeStart[color + 1] - colorNodeStart[color]);
  }
  /// Number of definition dims (value dims) in a color.
  unsigned getNumDefDims(unsigned color) const { return colorDefDims[color]; }
  unsigned getNumBlocked(unsigned color) const { return colorBlocked[color]; }
  /// gcd of the sizes of the color's names (0 if none).
  int64_t getSizeGcd(unsigned color) const { return colorGcd[color]; }
  /// Sharding `color` on an axis of size k is legal: every size of the color
  /// is divisible by k (and, unless allowBlocked, no dim is blocked). O(1).
  bool isLegal(unsigned color, int64_t k, bool allowBlocked = true) const;

  /// Dimension graph edges (M after I), deduplicated, by source node.
  llvm::ArrayRef<unsigned> getSuccessors(unsigned node) const {
    return llvm::ArrayRef(succ).slice(succStart[node],
                                      succStart[node + 1] - succStart[node]);
  }
  bool hasEdge(unsigned from, unsigned to) const;

  // --- Conflicts ---------------------------------------------------------
  llvm::ArrayRef<Conflict> getConflicts() const { return conflicts; }
  llvm::ArrayRef<CompatibilitySet> getSets() const { return sets; }
  /// Conflicts whose nodes lie in `color`, O(1).
  llvm::ArrayRef<unsigned> getConflictsOfColor(unsigned color) const {
    return llvm::ArrayRef(colorConflicts)
        .slice(colorConflictStart[color],
               colorConflictStart[color + 1] - colorConflictStart[color]);
  }
  /// The node a conflict shards under resolution `r` (0/1) of its set.
  unsigned getSelectedNode(unsigned conflict, bool r) const {
    const Conflict &c = conflicts[conflict];
    return (r ^ c.parity) ? c.b : c.a;
  }
  /// Canonical form of compatibility set `set` (section 3.6 merging).
  const CanonicalForm &getCanonicalForm(unsigned set) const {
    return forms[set];
  }
  /// Sets `a` and `b` are isomorphic (equal canonical forms); isomorphic
  /// sets share a resolution bit.
  bool isIsomorphic(unsigned a, unsigned b) const {
    return forms[a] == forms[b];
  }
  /// Whether a directed path of length >= 1 leads from node `from` to node
  /// `to` in the dimension graph (a depth-first search pruned by a
  /// topological numbering; O(nodes between them)). Paths are not followed
  /// out of nodes that join several call sites of one function: call sites
  /// are identified context-insensitively, so such paths would jump between
  /// unrelated calls. For the same reason paths do not go around loops: a
  /// value a loop body yields leads to the uses of the loop's results, not
  /// back into the body (whose names stand for every iteration).
  bool reaches(unsigned from, unsigned to) const;
  /// The node a conflict shards when resolution bit `bit` of the
  /// resolution_order is `value` (after isomorphism merging).
  unsigned getSelectedNodeForBit(unsigned conflict, bool value) const {
    const CompatibilitySet &s = sets[conflicts[conflict].set];
    return getSelectedNode(conflict, value ^ s.flip);
  }

  // --- Argument groups (section 4.4) ------------------------------------
  /// Groups of entry-function argument numbers with equal use keys; every
  /// argument is in exactly one group; groups in order of first argument.
  llvm::ArrayRef<llvm::SmallVector<unsigned>> getArgumentGroups() const {
    return argGroups;
  }
  /// Group index of entry argument i.
  unsigned getArgumentGroup(unsigned arg) const { return argGroupOf[arg]; }

  // --- Printing ---------------------------------------------------------
  /// Stable description of a site, e.g. "arg0", "%3 stablehlo.add#0",
  /// "use %5 stablehlo.dot_general(1)".
  std::string describeSite(unsigned site) const;
  std::string describeName(unsigned name) const;
  /// Short id of a color / node for annotations: "c3", "n17".
  static std::string colorLabel(unsigned c) { return "c" + std::to_string(c); }

private:
  void run(llvm::ArrayRef<mlir::func::FuncOp> funcs);
  // NamedDimensionAnalysis.cpp
  void assignNames(llvm::ArrayRef<mlir::func::FuncOp> funcs);
  unsigned addSite(mlir::Value v, mlir::OpOperand *use);
  /// Whether an op's names get identities from its sharding rule.
  bool takesRule(mlir::Operation *op) const;
  void addIdentities(mlir::Operation *op, class UnionFind &ids);
  // CompoundDims.cpp
  /// Splits the dims that carry a reshape's merged factors into parts
  /// (minor names), consistently along every identity and M edge.
  void splitCompoundDims(llvm::ArrayRef<mlir::func::FuncOp> funcs,
                         llvm::ArrayRef<TiedValues> tied);
  /// Unites names of `op`'s tensors mapped by one factor (and part).
  void identifyFactorNames(mlir::Operation *op, const ShardingRule &rule,
                           UnionFind &ids);
  /// Identifies the names of two sites dim by dim (-1 or unequal ranks:
  /// nothing).
  void identifySites(int a, int b, UnionFind &ids);
  void addCallIdentities(mlir::func::CallOp call, UnionFind &ids);
  void addTiedIdentities(const TiedValues &tied, UnionFind &ids);
  void buildNodesAndColors(UnionFind &ids);
  // Conflicts.cpp
  void findConflicts();
  void buildCompatibilitySets(
      const llvm::DenseSet<mlir::Operation *> &inputIndependentOps);
  void mergeIsomorphicSets();
  std::string describePosition(llvm::ArrayRef<unsigned> nodeNames) const;
  void numberTopologically();
  void markSharedCallNodes(llvm::ArrayRef<mlir::func::FuncOp> funcs);
  /// Calls fn(def name, use name) for every M edge between names.
  void forEachMapName(
      llvm::function_ref<void(unsigned defName, unsigned useName)> fn) const;
  void buildPathGraph(llvm::ArrayRef<TiedValues> tied);
  /// Out-edges followed by reaches() (vertices: the nodes, then one yield
  /// vertex per loop-carried node).
  llvm::ArrayRef<unsigned> getPathSuccessors(unsigned vertex) const {
    return llvm::ArrayRef(pathSucc).slice(
        pathStart[vertex], pathStart[vertex + 1] - pathStart[vertex]);
  }
  // ArgumentGroups.cpp
  void groupArguments();

  mlir::func::FuncOp entry;
  std::vector<Site> sites;
  std::vector<Name> names;
  llvm::DenseMap<mlir::Value, unsigned> defSite;
  llvm::DenseMap<mlir::OpOperand *, unsigned> useSite;
  llvm::DenseMap<mlir::Operation *, unsigned> opNumber;
  /// The sharding rule of every ruled op (computed once).
  llvm::DenseMap<mlir::Operation *, ShardingRule> rules;
  unsigned numOpaqueOps = 0;

  std::vector<unsigned> nameNode;  ///< name -> node
  std::vector<unsigned> nodeRep;   ///< node -> a representative name
  std::vector<unsigned> nodeColor; ///< node -> color
  std::vector<unsigned> colorStart, colorNames;
  std::vector<unsigned> colorNodeStart, colorNodes;
  std::vector<unsigned> colorDefDims, colorBlocked;
  std::vector<int64_t> colorGcd;
  std::vector<unsigned> succStart, succ;
  unsigned numEdges = 0;

  std::vector<Conflict> conflicts;
  std::vector<unsigned> colorConflictStart, colorConflicts;
  std::vector<CompatibilitySet> sets;
  std::vector<CanonicalForm> forms;
  unsigned numBits = 0;
  NdaOptions options;
  /// Topological number of each node not on or behind a cycle of the
  /// dimension graph (~0u otherwise); prunes reaches().
  std::vector<unsigned> topoOrder;
  /// Nodes holding names of a function called from several call sites (its
  /// arguments, the call results).
  std::vector<bool> sharedCallNode;
  /// The graph reaches() searches, as CSR: the dimension graph without
  /// edges out of shared call nodes, where a loop-carried node has a second
  /// vertex for the body's yield and the loop's result, which leads out of
  /// the loop only (buildPathGraph).
  std::vector<unsigned> pathStart, pathSucc;
  /// name -> its vertex in that graph (its node, or the yield vertex).
  std::vector<unsigned> nameVertex;

  std::vector<llvm::SmallVector<unsigned>> argGroups;
  std::vector<unsigned> argGroupOf;
};

} // namespace toast

#endif // TOAST_ANALYSIS_NAMEDDIMENSIONANALYSIS_H
