//===- ActionSpace.cpp - TOAST §4.2 actions over NDA colors ---------------===//
//
// Actions are built once: per color family (colors of grouped arguments,
// §4.4), per assignment of the family's resolution bits, per search axis.
// Applying an action *attempts* to shard every node of the color (TOAST
// §4.2): a node that shares a site or an op with a node already sharded on
// the axis, or whose sizes the axis would not divide, stays as it is. This
// is how ZeRO-3/FSDP arises after batch sharding: a parameter's own
// dimension takes the batch axis, its use in a matmul that already loops
// over the batch axis cannot, and the parameter is gathered there. With
// NdaEnvironmentOptions::contextActions, each family action also comes
// restricted to the nodes that meet one of the largest unmirrored colors.
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"
#include "SpaceImpl.h"

#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ValueNames.h"

#include "llvm/ADT/DenseSet.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <numeric>
#include <optional>
#include <set>

using namespace mlir;

namespace toast::search {

/// Where the partitioner can loop: the function body and, recursively, the
/// bodies of loops and conditionals (walkProgram), with how often each op
/// runs.
struct ProgramBlocks {
  llvm::DenseSet<Block *> blocks;
  llvm::DenseMap<Operation *, double> repeat;

  explicit ProgramBlocks(Block &entry) {
    blocks.insert(&entry);
    walkProgram(entry, [&](Operation *op, const Scope &scope) {
      blocks.insert(op->getBlock());
      repeat[op] = scope.repeat;
    });
  }
  bool contains(Operation *op) const { return blocks.contains(op->getBlock()); }
};

/// Whether the partitioner can shard a name's dim: a loopable factor of the
/// ruled op that defines or reads it, an entry argument (explicit tiling),
/// or a value of a tied class (a loop-carried value or a conditional's
/// result, whose edge is an identity over its static dims).
static bool isShardableName(const NamedDimensionAnalysis &nda,
                            partition::ShardingState &rules,
                            const ProgramBlocks &program, Block &entry,
                            unsigned name) {
  const NamedDimensionAnalysis::Name &n = nda.getName(name);
  if (n.blocked)
    return false;
  const NamedDimensionAnalysis::Site &site = nda.getSites()[n.site];
  const TiedValues &tied = rules.getTiedValues();
  // The factor of the name: a compound dim's part n.part, else the dim's.
  auto factorOf = [&](const ShardingRule &rule, bool isResult,
                      unsigned tensor) -> int64_t {
    SmallVector<int64_t, 2> fs = rule.getDimFactors(isResult, tensor, n.dim);
    if (fs.empty())
      return kNoFactor;
    return fs.size() > 1 && n.part < fs.size() ? fs[n.part] : fs[0];
  };
  auto isStatic = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.hasStaticShape();
  };
  if (site.isUse()) {
    // Tied classes and arguments tile whole dims: minor parts of their
    // split dims stay out of loops and conditionals.
    if (tied.getEdgeOfSource(*site.use))
      return n.part == 0 && isStatic(site.use->get());
    Operation *user = site.use->getOwner();
    const ShardingRule *rule =
        program.contains(user) ? rules.getRule(user) : nullptr;
    if (!rule)
      return false;
    int64_t f = factorOf(*rule, false, site.use->getOperandNumber());
    return f != kNoFactor && rules.isLoopableFactor(user, f);
  }
  if (tied.getEdgeOfTarget(site.value))
    return n.part == 0 && isStatic(site.value);
  if (auto arg = dyn_cast<BlockArgument>(site.value))
    return arg.getOwner() == &entry;
  auto result = cast<OpResult>(site.value);
  Operation *def = result.getOwner();
  const ShardingRule *rule =
      program.contains(def) ? rules.getRule(def) : nullptr;
  if (!rule)
    return false;
  int64_t f = factorOf(*rule, true, result.getResultNumber());
  return f != kNoFactor && rules.isLoopableFactor(def, f);
}

/// How often a site's values are read or written per run of the program,
/// and whether it lies in a region or on a region op's boundary.
static std::pair<double, bool>
getSiteScope(const NamedDimensionAnalysis::Site &site,
             const ProgramBlocks &program, Block &entry) {
  Operation *op = nullptr;
  if (site.isUse())
    op = site.use->getOwner();
  else if (auto arg = dyn_cast<BlockArgument>(site.value))
    op = arg.getOwner() == &entry || arg.getOwner()->empty()
             ? nullptr
             : &arg.getOwner()->front();
  else
    op = site.value.getDefiningOp();
  if (!op)
    return {1, false};
  auto it = program.repeat.find(op);
  bool inRegion = op->getBlock() != &entry || isDataFlowRegionOp(op);
  return {it == program.repeat.end() ? 1 : it->second, inRegion};
}

/// The nodes of stacked dimensions: dims of values carried into a body
/// that the body only indexes (a scan's `[L, ...]` parameters read by
/// dynamic_slice at the counter, gradients written back by
/// dynamic_update_slice) and otherwise passes on unchanged. Sharding such
/// a dim only moves whole stacks around each iteration, and the unrolled
/// program has no such dimension: the search leaves it alone (the layer
/// dimension is indexed, never sharded, as for the unrolled twin).
static std::vector<unsigned> findIndexedNodes(const NamedDimensionAnalysis &nda,
                                              partition::ShardingState &rules,
                                              Block &entry) {
  std::vector<unsigned> indexed;
  for (const TiedValues::Edge &edge : rules.getTiedValues().getEdges())
    for (Value target : edge.targets) {
      auto arg = dyn_cast<BlockArgument>(target);
      int site = nda.getDefSite(target);
      if (!arg || arg.getOwner() == &entry || site < 0)
        continue;
      for (unsigned d = 0; d < nda.getSites()[site].rank; ++d)
        if (rules.isIndexedByBody(arg, d))
          indexed.push_back(nda.getNode(nda.getSites()[site].firstName + d));
    }
  return indexed;
}

void NdaEnvironment::Impl::findShardableNodes() {
  unsigned numNodes = nda.getNumNodes();
  nodeShardable.assign(numNodes, 1);
  nodeBlocker.assign(numNodes, -1);
  nodeGcd.assign(numNodes, 0);
  nodePaddable.assign(numNodes, 1);
  std::vector<int64_t> nodeSize(numNodes, 0);
  nodeNames.assign(numNodes, 0);
  nodeInRegion.assign(numNodes, 0);
  Block &block = entry.getBody().front();
  ProgramBlocks program(block);
  for (unsigned name = 0, e = nda.getNumNames(); name != e; ++name) {
    unsigned node = nda.getNode(name);
    auto [repeat, inRegion] =
        getSiteScope(nda.getSites()[nda.getName(name).site], program, block);
    nodeNames[node] += static_cast<unsigned>(std::max(1.0, repeat));
    nodeInRegion[node] |= inRegion;
    const NamedDimensionAnalysis::Name &n = nda.getName(name);
    nodeGcd[node] = std::gcd(nodeGcd[node], n.size);
    auto type =
        dyn_cast<RankedTensorType>(nda.getSites()[n.site].value.getType());
    if ((nodeSize[node] && nodeSize[node] != n.size) || !type ||
        type.getDimSize(n.dim) != n.size)
      nodePaddable[node] = 0;
    nodeSize[node] = n.size;
    if (!isShardableName(nda, *rules, program, block, name) &&
        nodeShardable[node]) {
      nodeShardable[node] = 0;
      nodeBlocker[node] = name;
    }
  }
  // The whole color of a stacked dimension: the stacks' own layer dims at
  // the top level (the parameters, their optimizer state and the stacked
  // gradients) are the same dimension as the one the loop indexes.
  for (unsigned node : findIndexedNodes(nda, *rules, block))
    for (unsigned n : nda.getNodesOfColor(nda.getColorOfNode(node))) {
      nodeShardable[n] = 0;
      nodeBlocker[n] = -1;
    }
}

void NdaEnvironment::Impl::findAtomicNodes(partition::ShardingState *start) {
  nodeAtomic.assign(nda.getNumNodes(), 0);
  if (!start)
    return;
  for (unsigned name = 0, e = nda.getNumNames(); name != e; ++name) {
    const NamedDimensionAnalysis::Site &site =
        nda.getSites()[nda.getName(name).site];
    Operation *op =
        site.isUse() ? site.use->getOwner() : site.value.getDefiningOp();
    AxisMask mask = op ? getAxisMask(start->getAtomicOpAxes(op)) : 0;
    if (!site.isUse())
      mask |= getAxisMask(start->getAtomicAxes(site.value));
    nodeAtomic[nda.getNode(name)] |= mask;
  }
}

void NdaEnvironment::Impl::findSplitParts() {
  partsBefore.assign(nda.getNumNodes(), {});
  partsAfter.assign(nda.getNumNodes(), {});
  auto addOnce = [](llvm::SmallVector<unsigned, 1> &list, unsigned node) {
    if (!llvm::is_contained(list, node))
      list.push_back(node);
  };
  for (unsigned site = 0; site < nda.getSites().size(); ++site) {
    const NamedDimensionAnalysis::Site &s = nda.getSites()[site];
    if (!s.numMinor)
      continue;
    for (unsigned d = 0; d < s.rank; ++d) {
      SmallVector<unsigned, 2> parts = nda.getDimNames(site, d);
      for (unsigned i = 0; i < parts.size(); ++i)
        for (unsigned j = i + 1; j < parts.size(); ++j) {
          unsigned a = nda.getNode(parts[i]), b = nda.getNode(parts[j]);
          if (a == b)
            continue;
          addOnce(partsAfter[a], b);
          addOnce(partsBefore[b], a);
        }
    }
  }
  nodeHasParts.assign(nda.getNumNodes(), 0);
  for (unsigned n = 0, e = nda.getNumNodes(); n != e; ++n)
    nodeHasParts[n] = !partsBefore[n].empty() || !partsAfter[n].empty();
}

/// Groups of nodes that must carry pairwise distinct axes: the dims of one
/// site, the factors of one ruled op.
static std::vector<std::vector<unsigned>>
buildConstraintGroups(const NamedDimensionAnalysis &nda,
                      const std::vector<char> &shardable) {
  std::vector<std::vector<unsigned>> groups;
  auto add = [&](std::vector<unsigned> nodes) {
    llvm::erase_if(nodes, [&](unsigned n) { return !shardable[n]; });
    llvm::sort(nodes);
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (nodes.size() > 1)
      groups.push_back(std::move(nodes));
  };
  // Every name of a site, the parts of split dims included.
  auto siteNodes = [&](unsigned site, std::vector<unsigned> &nodes) {
    for (unsigned n : nda.getSiteNames(site))
      nodes.push_back(nda.getNode(n));
  };
  for (unsigned site = 0; site < nda.getSites().size(); ++site) {
    std::vector<unsigned> nodes;
    siteNodes(site, nodes);
    add(std::move(nodes));
  }
  // Factors of an op: all its operand and result dims together.
  llvm::DenseMap<Operation *, std::vector<unsigned>> opNodes;
  for (auto [id, site] : llvm::enumerate(nda.getSites())) {
    Operation *op =
        site.isUse() ? site.use->getOwner() : site.value.getDefiningOp();
    // A loop's or conditional's values are tied classes of their own (one
    // identity each), and a body's return passes several of them on: two
    // carried values may take one axis.
    if (!op || isDataFlowRegionOp(op) || op->hasTrait<OpTrait::IsTerminator>())
      continue;
    siteNodes(id, opNodes[op]);
  }
  // Distinct factors of one op may share a node only if identified, so
  // the union of all its dims' nodes is the set of its factor nodes.
  for (auto &[op, nodes] : opNodes)
    add(std::move(nodes));
  return groups;
}

/// Color families: colors holding the same dims of grouped arguments.
/// Where a color's names sit, position by position (op, operand or result
/// number, dim, size, rank), sorted; nullopt if one of them is a function
/// argument's.
static std::optional<std::vector<std::string>>
argumentFreeSignature(const NamedDimensionAnalysis &nda, unsigned color) {
  std::vector<std::string> signature;
  for (unsigned n : nda.getNamesOfColor(color)) {
    const NamedDimensionAnalysis::Name &name = nda.getName(n);
    const NamedDimensionAnalysis::Site &site = nda.getSites()[name.site];
    std::string where;
    if (site.isUse()) {
      where = (site.use->getOwner()->getName().getStringRef() + " operand " +
               llvm::Twine(site.use->getOperandNumber()))
                  .str();
    } else if (auto result = dyn_cast<OpResult>(site.value)) {
      where = (result.getOwner()->getName().getStringRef() + " result " +
               llvm::Twine(result.getResultNumber()))
                  .str();
    } else {
      return std::nullopt;
    }
    signature.push_back(where + " dim " + std::to_string(name.dim) + "." +
                        std::to_string(name.part) + " size " +
                        std::to_string(name.size) + " rank " +
                        std::to_string(site.rank));
  }
  llvm::sort(signature);
  return signature;
}

/// The colors of every name of entry argument `arg`: its dims, then the
/// parts of its split dims (grouped arguments are split alike).
static SmallVector<unsigned> argumentColors(const NamedDimensionAnalysis &nda,
                                            unsigned arg) {
  SmallVector<unsigned> colors;
  int site = nda.getDefSite(nda.getEntry().getArgument(arg));
  if (site >= 0)
    for (unsigned n : nda.getSiteNames(site))
      colors.push_back(nda.getColorOfName(n));
  return colors;
}

/// The role of each color among the entry's arguments: the (argument
/// group, dim) pairs of the argument names it holds. Within a mirrored
/// family, colors of one role are the same dim of the same layer position
/// of a repeated block.
static std::vector<std::set<std::pair<unsigned, unsigned>>>
argumentRoles(const NamedDimensionAnalysis &nda) {
  std::vector<std::set<std::pair<unsigned, unsigned>>> roles(
      nda.getNumColors());
  for (auto [g, group] : llvm::enumerate(nda.getArgumentGroups()))
    for (unsigned arg : group)
      for (auto [d, c] : llvm::enumerate(argumentColors(nda, arg)))
        roles[c].insert({static_cast<unsigned>(g), static_cast<unsigned>(d)});
  return roles;
}

static std::vector<unsigned> buildFamilies(const NamedDimensionAnalysis &nda,
                                           bool mirror) {
  unsigned numColors = nda.getNumColors();
  std::vector<unsigned> parent(numColors);
  std::iota(parent.begin(), parent.end(), 0);
  std::function<unsigned(unsigned)> find = [&](unsigned c) {
    while (parent[c] != c)
      c = parent[c] = parent[parent[c]];
    return c;
  };
  if (mirror) {
    for (const auto &group : nda.getArgumentGroups()) {
      if (group.size() < 2)
        continue;
      SmallVector<unsigned> first = argumentColors(nda, group[0]);
      for (unsigned arg : llvm::drop_begin(group)) {
        SmallVector<unsigned> colors = argumentColors(nda, arg);
        for (size_t d = 0; d < std::min(first.size(), colors.size()); ++d) {
          unsigned a = find(first[d]), b = find(colors[d]);
          if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
        }
      }
    }
  }
  if (mirror) {
    // Colors that touch no argument (activations inside a layer, such as
    // a rotary embedding's halves) have no argument group to mirror them;
    // repeated layers give them equal structural signatures instead.
    std::map<std::vector<std::string>, unsigned> bySignature;
    for (unsigned c = 0; c < numColors; ++c) {
      std::optional<std::vector<std::string>> signature =
          argumentFreeSignature(nda, c);
      if (!signature)
        continue;
      auto [it, inserted] = bySignature.try_emplace(*signature, c);
      unsigned a = find(it->second), b = find(c);
      if (!inserted && a != b)
        parent[std::max(a, b)] = std::min(a, b);
    }
  }
  std::vector<unsigned> family(numColors);
  for (unsigned c = 0; c < numColors; ++c)
    family[c] = find(c);
  return family;
}

/// Resolution bits beyond this many per family are not enumerated: only
/// the all-zero and all-one assignments are kept.
static constexpr unsigned kMaxEnumeratedBits = 8;

/// TOAST prunes actions touching fewer than 10 dimensions: in a large
/// program they are biases and norms that do not pay for their
/// collectives. In a small one (the two-layer MLP has 10 dimension names in
/// all) that would prune the batch itself, so the threshold is at most a
/// quarter of the largest family's dimensions.
unsigned NdaEnvironment::Impl::getPruningThreshold(
    const std::map<unsigned, llvm::SmallVector<unsigned, 1>> &families) const {
  unsigned largest = 0;
  for (const auto &[rep, colors] : families) {
    unsigned dims = 0;
    for (unsigned c : colors)
      for (unsigned n : nda.getNodesOfColor(c))
        if (nodeShardable[n])
          dims += nodeNames[n];
    largest = std::max(largest, dims);
  }
  return std::min(options.minDims, std::max(1u, largest / 4));
}

void NdaEnvironment::Impl::buildActions() {
  groups = buildConstraintGroups(nda, nodeShardable);
  nodeGroups.assign(nda.getNumNodes(), {});
  for (auto [g, nodes] : llvm::enumerate(groups))
    for (unsigned n : nodes)
      nodeGroups[n].push_back(g);
  // A node is in a group per site and per op it appears in (hundreds on
  // full-size models), with the same few other nodes in most: canTake
  // asks the distinct ones (it was a sixth of U-Net's search CPU).
  peerStart.assign(1, 0);
  peerList.clear();
  for (unsigned n = 0, e = nda.getNumNodes(); n != e; ++n) {
    llvm::SmallVector<unsigned, 8> peers;
    for (unsigned g : nodeGroups[n])
      peers.append(groups[g].begin(), groups[g].end());
    llvm::sort(peers);
    peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
    peerList.insert(peerList.end(), peers.begin(), peers.end());
    peerStart.push_back(peerList.size());
  }

  colorFamily = buildFamilies(nda, options.mirrorGroups);
  std::map<unsigned, SmallVector<unsigned, 1>> families;
  for (unsigned c = 0, e = nda.getNumColors(); c != e; ++c)
    families[colorFamily[c]].push_back(c);

  unsigned minDims = getPruningThreshold(families);
  std::vector<std::set<std::pair<unsigned, unsigned>>> roles =
      argumentRoles(nda);
  for (auto &[rep, colors] : families) {
    // A mirrored family whose colors meet at one site or op cannot shard
    // all of them on one axis; its colors also get actions of their own,
    // by role first: one argument group may hold the weights of several
    // layers of one repeated block (GNS's square hidden layers), whose
    // hidden dims chain into one family.
    if (!addFamilyActions(colors, minDims) || colors.size() == 1)
      continue;
    std::map<std::set<std::pair<unsigned, unsigned>>, SmallVector<unsigned, 1>>
        byRole;
    for (unsigned c : colors)
      byRole[roles[c]].push_back(c);
    for (auto &[role, members] : byRole)
      if (byRole.size() == 1 ||
          (addFamilyActions(members, minDims) && members.size() > 1))
        for (unsigned c : members)
          addFamilyActions({c}, minDims);
  }
  if (options.contextActions)
    addContextActions(minDims);
  linkActionsAcrossAxes();
}

/// Context colors beyond this many would multiply the actions: the two
/// largest unmirrored colors are GNS's nodes and edges, a transformer's
/// batch and sequence.
static constexpr unsigned kMaxContextColors = 2;

/// The colors context actions restrict to: the unmirrored colors (families
/// of one color) with the most shardable dimensions. Such a color runs
/// through the program (a batch dimension), and the ops it meets are one
/// part of it (GNS: the edge MLPs meet the edges, the node MLPs the
/// nodes). It need not have actions of its own (an axis may not divide it).
static SmallVector<unsigned>
chooseContextColors(const NamedDimensionAnalysis &nda,
                    ArrayRef<unsigned> colorFamily,
                    const std::vector<char> &nodeShardable,
                    const std::vector<unsigned> &nodeNames) {
  std::vector<unsigned> familySize(colorFamily.size(), 0);
  for (unsigned family : colorFamily)
    ++familySize[family];
  SmallVector<std::pair<unsigned, unsigned>> byDims;
  for (unsigned c = 0; c < colorFamily.size(); ++c) {
    if (familySize[colorFamily[c]] != 1)
      continue;
    unsigned dims = 0;
    for (unsigned n : nda.getNodesOfColor(c))
      if (nodeShardable[n])
        dims += nodeNames[n];
    if (dims)
      byDims.push_back({dims, c});
  }
  llvm::stable_sort(byDims, [](auto a, auto b) { return a.first > b.first; });
  SmallVector<unsigned> colors;
  for (auto [dims, color] :
       llvm::ArrayRef(byDims).take_front(kMaxContextColors))
    colors.push_back(color);
  return colors;
}

void NdaEnvironment::Impl::addContextActions(unsigned minDims) {
  SmallVector<unsigned> contexts =
      chooseContextColors(nda, colorFamily, nodeShardable, nodeNames);
  // Whether `node` shares a site or an op with a node of `color`.
  auto meets = [&](unsigned node, unsigned color) {
    return llvm::any_of(nodeGroups[node], [&](unsigned g) {
      return llvm::any_of(groups[g], [&](unsigned m) {
        return m != node && nda.getColorOfNode(m) == color;
      });
    });
  };
  std::set<std::pair<std::vector<unsigned>, unsigned>> seen;
  for (const NdaAction &a : actions)
    seen.insert({a.nodes, a.axis});
  for (size_t i = 0, e = actions.size(); i != e; ++i) {
    for (unsigned context : contexts) {
      if (llvm::is_contained(actions[i].colors, context))
        continue;
      std::vector<unsigned> nodes;
      unsigned numDims = 0;
      for (unsigned n : actions[i].nodes)
        if (meets(n, context)) {
          nodes.push_back(n);
          numDims += nodeNames[n];
        }
      if (nodes.empty() || nodes.size() == actions[i].nodes.size() ||
          numDims < minDims || !seen.insert({nodes, actions[i].axis}).second)
        continue;
      NdaAction action = actions[i];
      action.nodes = std::move(nodes);
      action.numDims = numDims;
      action.context = context;
      actions.push_back(std::move(action));
    }
  }
}

/// The nodes of `nodes` (sorted) that one action can shard together: no two
/// in one site or op. Larger nodes first; sets `collided` when some node
/// had to be left out.
static std::vector<unsigned>
keepIndependent(const std::vector<unsigned> &nodes,
                const std::vector<unsigned> &nodeNames,
                const std::vector<std::vector<unsigned>> &groups,
                const std::vector<llvm::SmallVector<unsigned, 2>> &nodeGroups,
                bool &collided) {
  std::vector<unsigned> order = nodes;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return nodeNames[a] > nodeNames[b];
  });
  std::set<unsigned> kept;
  for (unsigned n : order) {
    bool clash = llvm::any_of(nodeGroups[n], [&](unsigned g) {
      return llvm::any_of(groups[g], [&](unsigned m) { return kept.count(m); });
    });
    if (clash)
      collided = true;
    else
      kept.insert(n);
  }
  return std::vector<unsigned>(kept.begin(), kept.end());
}

bool NdaEnvironment::Impl::addFamilyActions(ArrayRef<unsigned> colors,
                                            unsigned minDims) {
  std::vector<unsigned> familyNodes;
  std::set<unsigned> bitSet;
  SmallVector<unsigned> conflicts;
  for (unsigned c : colors) {
    for (unsigned n : nda.getNodesOfColor(c))
      if (nodeShardable[n])
        familyNodes.push_back(n);
    for (unsigned k : nda.getConflictsOfColor(c)) {
      conflicts.push_back(k);
      bitSet.insert(nda.getSets()[nda.getConflicts()[k].set].bit);
    }
  }
  if (familyNodes.empty())
    return false;
  llvm::sort(familyNodes);
  SmallVector<unsigned> bits(bitSet.begin(), bitSet.end());
  SmallVector<uint64_t> assignments;
  if (bits.size() <= kMaxEnumeratedBits) {
    for (uint64_t a = 0; a < (uint64_t(1) << bits.size()); ++a)
      assignments.push_back(a);
  } else {
    assignments = {0, ~uint64_t(0)};
  }
  bool collided = false;
  std::set<std::vector<unsigned>> seen;
  for (uint64_t assignment : assignments) {
    auto valueOf = [&](unsigned bit) {
      unsigned i = llvm::find(bits, bit) - bits.begin();
      return bool((assignment >> i) & 1);
    };
    std::set<unsigned> deselected;
    for (unsigned k : conflicts) {
      const auto &c = nda.getConflicts()[k];
      unsigned chosen =
          nda.getSelectedNodeForBit(k, valueOf(nda.getSets()[c.set].bit));
      deselected.insert(chosen == c.a ? c.b : c.a);
    }
    std::vector<unsigned> selected;
    for (unsigned n : familyNodes)
      if (!deselected.count(n))
        selected.push_back(n);
    // The action must not put one axis on two dims of a site or an op.
    std::vector<unsigned> nodes =
        keepIndependent(selected, nodeNames, groups, nodeGroups, collided);
    if (nodes.empty() || !seen.insert(nodes).second)
      continue;
    unsigned numDims = 0;
    for (unsigned n : nodes)
      numDims += nodeNames[n];
    if (numDims < minDims)
      continue;
    for (unsigned axis : searchAxes) {
      // Nodes the axis does not divide are skipped when applied.
      if (llvm::none_of(nodes, [&](unsigned n) {
            return !(nodeAtomic[n] >> axis & 1) &&
                   canShardNode(n, 0, axisSizes[axis]);
          }))
        continue;
      NdaAction action;
      action.colors.assign(colors.begin(), colors.end());
      for (unsigned b : bits)
        action.bits.push_back({b, valueOf(b)});
      action.axis = axis;
      action.axisSize = axisSizes[axis];
      action.nodes = nodes;
      action.numDims = numDims;
      actions.push_back(std::move(action));
    }
  }
  return collided;
}

void NdaEnvironment::Impl::linkActionsAcrossAxes() {
  using Key = std::tuple<SmallVector<unsigned, 1>,
                         SmallVector<std::pair<unsigned, bool>>, int>;
  std::map<Key, SmallVector<int, 4>> byChoice;
  auto keyOf = [](const NdaAction &action) {
    return Key{action.colors, action.bits, action.context};
  };
  for (auto [i, action] : llvm::enumerate(actions)) {
    SmallVector<int, 4> &perAxis = byChoice[keyOf(action)];
    perAxis.resize(axisNames.size(), -1);
    perAxis[action.axis] = i;
  }
  actionOnAxis.clear();
  for (const NdaAction &action : actions)
    actionOnAxis.push_back(byChoice[keyOf(action)]);
}

bool NdaEnvironment::Impl::canShardNode(unsigned node, AxisMask axes,
                                        int64_t axisSize) const {
  // Axes of size 1 cut nothing, so they never count as the padding axis.
  unsigned cutting = axisSize > 1;
  for (auto [a, size] : llvm::enumerate(axisSizes))
    cutting += ((axes >> a) & 1) && size > 1;
  return canTileDim(nodeGcd[node], maskProduct(axes) * axisSize, cutting) &&
         (nodeGcd[node] % (maskProduct(axes) * axisSize) == 0 ||
          (options.pad && nodePaddable[node]));
}

bool NdaEnvironment::Impl::canTake(const SearchState &state, unsigned node,
                                   unsigned axis, int64_t axisSize) const {
  AxisMask bit = AxisMask(1) << axis;
  if (nodeAtomic[node] & bit)
    return false;
  // Axis lists hold at most kMaxListLength axes per dimension.
  if (static_cast<unsigned>(llvm::popcount(state.nodeAxes[node])) >=
      analytic::kMaxListLength)
    return false;
  if (!canShardNode(node, state.nodeAxes[node], axisSize))
    return false;
  if (nodeHasParts[node]) {
    for (unsigned p : partsBefore[node]) {
      AxisMask before = state.nodeAxes[p];
      if (maskProduct(before) != nodeGcd[p] ||
          (before >> axis) != 0) // An axis after this one tiles p.
        return false;
    }
    for (unsigned q : partsAfter[node])
      if (state.nodeAxes[q])
        return false;
  }
  for (unsigned m : peersOf(node))
    if (state.nodeAxes[m] & bit)
      return false;
  return true;
}

/// Legal when the color does not carry the axis yet and at least one of its
/// nodes can take it.
bool NdaEnvironment::Impl::isLegal(const SearchState &state,
                                   unsigned action) const {
  const NdaAction &a = actions[action];
  AxisMask bit = AxisMask(1) << a.axis;
  for (unsigned n : a.nodes)
    if (state.nodeAxes[n] & bit)
      return false;
  return llvm::any_of(a.nodes, [&](unsigned n) {
    return canTake(state, n, a.axis, a.axisSize);
  });
}

/// The action's nodes never share a site or an op (checked when the space
/// is built), so whether one can take the axis does not depend on the
/// others and the order below does not matter.
void NdaEnvironment::Impl::apply(SearchState &state, unsigned action) const {
  const NdaAction &a = actions[action];
  AxisMask bit = AxisMask(1) << a.axis;
  llvm::SmallVector<unsigned> taking;
  for (unsigned n : a.nodes)
    if (canTake(state, n, a.axis, a.axisSize))
      taking.push_back(n);
  for (unsigned n : taking)
    state.nodeAxes[n] |= bit;
}

/// A recognizable dimension of `colors` among the names of nodes `keep`
/// accepts: the first entry-argument dim (by the name the user gave the
/// argument: "batch.tokens[0]", "params['layers']['w1'][1]"), else the
/// first name.
template <typename Keep>
static std::string exampleName(const NamedDimensionAnalysis &nda,
                               func::FuncOp entry, ArrayRef<unsigned> colors,
                               Keep keep) {
  std::string example;
  for (unsigned c : colors) {
    for (unsigned name : nda.getNamesOfColor(c)) {
      if (!keep(nda.getNode(name)))
        continue;
      const auto &site = nda.getSites()[nda.getName(name).site];
      // Only the entry's arguments: a loop body's block argument has a
      // number of its own (it named the entry argument of that number).
      auto arg =
          site.isUse() ? BlockArgument() : dyn_cast<BlockArgument>(site.value);
      if (arg && arg.getOwner() != &entry.front())
        arg = BlockArgument();
      if (example.empty() || arg)
        example = nda.describeName(name);
      if (arg)
        return getArgumentDisplayName(entry, arg.getArgNumber()) + "[" +
               std::to_string(nda.getName(name).dim) + "]";
    }
    if (!example.empty())
      break;
  }
  return example;
}

std::string NdaEnvironment::Impl::describeAction(unsigned action) const {
  const NdaAction &a = actions[action];
  std::string text = llvm::formatv("shard color {0}", a.colors.front());
  if (a.colors.size() > 1)
    text += llvm::formatv(" (+{0} mirrored)", a.colors.size() - 1);
  std::set<unsigned> nodes(a.nodes.begin(), a.nodes.end());
  std::string example = exampleName(
      nda, entry, a.colors, [&](unsigned n) { return nodes.count(n) > 0; });
  text += llvm::formatv(" ({0}: {1} dims)", example, a.numDims);
  if (a.context >= 0)
    text += llvm::formatv(" where it meets color {0} ({1})", a.context,
                          exampleName(nda, entry,
                                      {static_cast<unsigned>(a.context)},
                                      [](unsigned) { return true; }));
  if (!a.bits.empty()) {
    text += " resolution";
    for (auto [bit, value] : a.bits)
      text += llvm::formatv(" b{0}={1}", bit, value ? 1 : 0);
  }
  text += " on axis " + axisNames[a.axis];
  return text;
}

} // namespace toast::search
