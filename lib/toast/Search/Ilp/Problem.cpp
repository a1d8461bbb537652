//===- Problem.cpp - The ILP's decision problem and its IOPDDL form -------===//

#include "toast/Search/Ilp.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>

namespace toast::search::ilp {

bool Problem::Node::operator==(const Node &other) const {
  return start == other.start && end == other.end && costs == other.costs &&
         usages == other.usages && follows == other.follows;
}

bool Problem::Edge::operator==(const Edge &other) const {
  return from == other.from && to == other.to && costs == other.costs;
}

bool Problem::operator==(const Problem &other) const {
  return name == other.name && nodes == other.nodes && edges == other.edges &&
         usageLimit == other.usageLimit;
}

unsigned Problem::getLeader(unsigned node) const {
  while (nodes[node].follows >= 0)
    node = nodes[node].follows;
  return node;
}

double evaluate(const Problem &problem, llvm::ArrayRef<unsigned> strategies,
                double penaltyPerByte) {
  double total = 0;
  for (auto [n, node] : llvm::enumerate(problem.nodes))
    total += node.costs[strategies[n]];
  for (const Problem::Edge &edge : problem.edges) {
    size_t columns = problem.nodes[edge.to].costs.size();
    total += edge.costs[strategies[edge.from] * columns + strategies[edge.to]];
  }
  int64_t excess = peakUsage(problem, strategies) - problem.usageLimit;
  return total + penaltyPerByte * std::max<int64_t>(excess, 0);
}

int64_t peakUsage(const Problem &problem, llvm::ArrayRef<unsigned> strategies) {
  // Usage changes only at interval ends: sweep the sorted boundaries.
  std::map<int64_t, int64_t> delta;
  for (auto [n, node] : llvm::enumerate(problem.nodes)) {
    delta[node.start] += node.usages[strategies[n]];
    delta[node.end] -= node.usages[strategies[n]];
  }
  int64_t live = 0, peak = 0;
  for (auto [at, change] : delta)
    peak = std::max(peak, live += change);
  return peak;
}

//===----------------------------------------------------------------------===//
// IOPDDL
//===----------------------------------------------------------------------===//

template <typename Range>
static void writeArray(llvm::json::OStream &json, const Range &range) {
  json.array([&] {
    for (int64_t value : range)
      json.value(value);
  });
}

/// A follower's edge: zero on the diagonal, forbidden elsewhere.
static std::vector<int64_t> followerCosts(size_t strategies) {
  std::vector<int64_t> costs(strategies * strategies, kForbiddenCost);
  for (size_t i = 0; i < strategies; ++i)
    costs[i * strategies + i] = 0;
  return costs;
}

void writeIopddl(const Problem &problem, llvm::raw_ostream &os) {
  llvm::json::OStream json(os);
  auto nodesField = [&](auto field) {
    json.array([&] {
      for (const Problem::Node &node : problem.nodes)
        field(node);
    });
  };
  std::vector<Problem::Edge> edges;
  for (auto [n, node] : llvm::enumerate(problem.nodes))
    if (node.follows >= 0)
      edges.push_back({static_cast<unsigned>(node.follows),
                       static_cast<unsigned>(n),
                       followerCosts(node.costs.size())});
  llvm::append_range(edges, problem.edges);
  json.object([&] {
    json.attributeObject("problem", [&] {
      json.attribute("name", problem.name);
      json.attributeObject("nodes", [&] {
        json.attributeBegin("intervals");
        nodesField([&](const Problem::Node &node) {
          writeArray(json, std::vector<int64_t>{node.start, node.end});
        });
        json.attributeEnd();
        json.attributeBegin("costs");
        nodesField(
            [&](const Problem::Node &node) { writeArray(json, node.costs); });
        json.attributeEnd();
        json.attributeBegin("usages");
        nodesField(
            [&](const Problem::Node &node) { writeArray(json, node.usages); });
        json.attributeEnd();
      });
      json.attributeObject("edges", [&] {
        json.attributeArray("nodes", [&] {
          for (const Problem::Edge &edge : edges)
            writeArray(json, std::vector<int64_t>{edge.from, edge.to});
        });
        json.attributeArray("costs", [&] {
          for (const Problem::Edge &edge : edges)
            writeArray(json, edge.costs);
        });
      });
      json.attribute("usage_limit", problem.usageLimit);
    });
  });
  os << "\n";
}

static llvm::Error invalid(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "invalid IOPDDL problem: " + what);
}

/// Reads an array of integer arrays (`path` names it in errors).
static llvm::Expected<std::vector<std::vector<int64_t>>>
readMatrix(const llvm::json::Object *object, llvm::StringRef key) {
  const llvm::json::Array *rows = object ? object->getArray(key) : nullptr;
  if (!rows)
    return invalid("missing array '" + key + "'");
  std::vector<std::vector<int64_t>> matrix;
  for (const llvm::json::Value &row : *rows) {
    const llvm::json::Array *values = row.getAsArray();
    if (!values)
      return invalid("'" + key + "' must hold arrays of integers");
    std::vector<int64_t> &out = matrix.emplace_back();
    for (const llvm::json::Value &value : *values) {
      std::optional<int64_t> n = value.getAsInteger();
      if (!n)
        return invalid("'" + key + "' must hold arrays of integers");
      out.push_back(*n);
    }
  }
  return matrix;
}

/// Whether `edge` has the shape of a follower's edge into a node of
/// `strategies` strategies.
static bool isFollowerEdge(const Problem::Edge &edge, size_t fromStrategies,
                           size_t toStrategies) {
  return fromStrategies == toStrategies &&
         edge.costs == followerCosts(toStrategies);
}

llvm::Expected<Problem> readIopddl(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return invalid(llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Object *object =
      root ? root->getObject("problem") : nullptr;
  if (!object)
    return invalid("missing object 'problem'");
  Problem problem;
  problem.name = object->getString("name").value_or("").str();
  std::optional<int64_t> limit = object->getInteger("usage_limit");
  problem.usageLimit = limit.value_or(0);
  const llvm::json::Object *nodes = object->getObject("nodes");
  auto intervals = readMatrix(nodes, "intervals");
  if (!intervals)
    return intervals.takeError();
  auto costs = readMatrix(nodes, "costs");
  if (!costs)
    return costs.takeError();
  auto usages = readMatrix(nodes, "usages");
  if (!usages)
    return usages.takeError();
  size_t n = intervals->size();
  if (costs->size() != n || usages->size() != n)
    return invalid("nodes.intervals, costs and usages differ in length");
  for (size_t i = 0; i < n; ++i) {
    if ((*intervals)[i].size() != 2 || (*costs)[i].empty() ||
        (*costs)[i].size() != (*usages)[i].size())
      return invalid("node " + llvm::Twine(i) +
                     ": expected an interval [start, end) and as many "
                     "usages as costs (at least one)");
    problem.nodes.push_back({(*intervals)[i][0], (*intervals)[i][1],
                             (*costs)[i], (*usages)[i], -1});
  }
  const llvm::json::Object *edges = object->getObject("edges");
  auto ends = readMatrix(edges, "nodes");
  if (!ends)
    return ends.takeError();
  auto edgeCosts = readMatrix(edges, "costs");
  if (!edgeCosts)
    return edgeCosts.takeError();
  if (ends->size() != edgeCosts->size())
    return invalid("edges.nodes and edges.costs differ in length");
  for (size_t e = 0; e < ends->size(); ++e) {
    const std::vector<int64_t> &pair = (*ends)[e];
    if (pair.size() != 2 || pair[0] < 0 || pair[1] < 0 ||
        pair[0] >= static_cast<int64_t>(n) ||
        pair[1] >= static_cast<int64_t>(n))
      return invalid("edge " + llvm::Twine(e) + ": expected two node indices");
    Problem::Edge edge{static_cast<unsigned>(pair[0]),
                       static_cast<unsigned>(pair[1]), (*edgeCosts)[e]};
    size_t rows = problem.nodes[edge.from].costs.size();
    size_t columns = problem.nodes[edge.to].costs.size();
    if (edge.costs.size() != rows * columns)
      return invalid("edge " + llvm::Twine(e) + ": expected " +
                     llvm::Twine(rows * columns) + " costs");
    Problem::Node &to = problem.nodes[edge.to];
    if (to.follows < 0 && edge.from < edge.to &&
        isFollowerEdge(edge, rows, columns)) {
      to.follows = edge.from;
      continue;
    }
    problem.edges.push_back(std::move(edge));
  }
  return problem;
}

} // namespace toast::search::ilp
