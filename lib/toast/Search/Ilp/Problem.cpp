//===- Problem.cpp - The ILP's decision problem and its IOPDDL form -------===//

#include "toast/Search/Ilp.h"
#include "toast/Simulator/JsonInput.h"

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
  return from == other.from && to == other.to && costs == other.costs &&
         usages == other.usages && start == other.start && end == other.end;
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

std::vector<int64_t> usageProfile(const Problem &problem,
                                  llvm::ArrayRef<unsigned> strategies) {
  int64_t last = 0;
  for (const Problem::Node &node : problem.nodes)
    last = std::max(last, node.end);
  for (const Problem::Edge &edge : problem.edges)
    last = std::max(last, edge.end);
  // Usage changes at interval ends: accumulate the changes, then sum.
  std::vector<int64_t> profile(last + 1, 0);
  auto add = [&](int64_t start, int64_t end, int64_t bytes) {
    if (end <= start)
      return;
    profile[std::max<int64_t>(start, 0)] += bytes;
    profile[std::max<int64_t>(end, 0)] -= bytes;
  };
  for (auto [n, node] : llvm::enumerate(problem.nodes))
    add(node.start, node.end, node.usages[strategies[n]]);
  for (const Problem::Edge &edge : problem.edges)
    if (!edge.usages.empty())
      add(edge.start, edge.end,
          edge.usages[strategies[edge.from] *
                          problem.nodes[edge.to].usages.size() +
                      strategies[edge.to]]);
  for (size_t t = 1; t < profile.size(); ++t)
    profile[t] += profile[t - 1];
  return profile;
}

int64_t peakUsage(const Problem &problem, llvm::ArrayRef<unsigned> strategies) {
  std::vector<int64_t> profile = usageProfile(problem, strategies);
  return std::max<int64_t>(0, *llvm::max_element(profile));
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
        // Edge buffers are an extension: a problem without them stays
        // plain IOPDDL.
        if (llvm::none_of(edges, [](const Problem::Edge &edge) {
              return !edge.usages.empty();
            }))
          return;
        json.attributeArray("intervals", [&] {
          for (const Problem::Edge &edge : edges)
            writeArray(json, std::vector<int64_t>{edge.start, edge.end});
        });
        json.attributeArray("usages", [&] {
          for (const Problem::Edge &edge : edges)
            writeArray(json, edge.usages);
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
  llvm::Expected<llvm::json::Value> parsed = sim::parseJsonInput(text);
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
  // The edge buffers' extension, both arrays or neither.
  std::vector<std::vector<int64_t>> edgeIntervals(ends->size(), {0, 0}),
      edgeUsages(ends->size());
  if (edges && (edges->get("intervals") || edges->get("usages"))) {
    auto intervals = readMatrix(edges, "intervals");
    if (!intervals)
      return intervals.takeError();
    auto usages = readMatrix(edges, "usages");
    if (!usages)
      return usages.takeError();
    if (intervals->size() != ends->size() || usages->size() != ends->size())
      return invalid("edges.intervals and usages differ in length from "
                     "edges.nodes");
    edgeIntervals = std::move(*intervals);
    edgeUsages = std::move(*usages);
  }
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
    edge.usages = std::move(edgeUsages[e]);
    if (edgeIntervals[e].size() != 2 ||
        (!edge.usages.empty() && edge.usages.size() != rows * columns))
      return invalid("edge " + llvm::Twine(e) +
                     ": expected an interval "
                     "[start, end) and no usages or as many as costs");
    edge.start = edgeIntervals[e][0];
    edge.end = edgeIntervals[e][1];
    Problem::Node &to = problem.nodes[edge.to];
    if (to.follows < 0 && edge.from < edge.to && edge.usages.empty() &&
        isFollowerEdge(edge, rows, columns)) {
      to.follows = edge.from;
      continue;
    }
    problem.edges.push_back(std::move(edge));
  }
  return problem;
}

} // namespace toast::search::ilp
