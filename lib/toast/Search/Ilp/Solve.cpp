//===- Solve.cpp - The ILP as a CBC mixed-integer program -----------------===//
//
// Variables: one binary per (decision node, strategy), picked once per
// node; followers reuse their leader's. An edge's cost matrix is linearized
// as in Alpa: continuous y[a][b] >= 0 over (row class, column class) pairs,
// whose row sums equal the producer's indicators of class a and column sums
// the consumer's indicators of class b. Strategies with identical rows
// (columns) form one class, which is what keeps the program small: most
// strategies of an op differ only in factors the other end does not see.
// Edges between the same two decisions are summed first. Memory (penalty
// form): a row per op position where a live range ends, live bytes minus
// the excess E <= device memory, E >= 0 priced at the penalty. An edge's
// buffers count in those rows through a linearization of their own (on the
// classes of their usages, made when a row first needs them), or through
// the indicators when both ends follow one decision.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Ilp.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#ifdef TOAST_HAVE_CBC
#include "coin/CbcModel.hpp"
#include "coin/CoinPackedMatrix.hpp"
#include "coin/CoinPackedVector.hpp"
#include "coin/OsiClpSolverInterface.hpp"
#endif

namespace toast::search::ilp {

bool haveSolver() {
#ifdef TOAST_HAVE_CBC
  return true;
#else
  return false;
#endif
}

#ifdef TOAST_HAVE_CBC
namespace {

/// Objective scale (cost units to microseconds) and memory scale (bytes to
/// MiB): CBC's tolerances are absolute, so keep the numbers moderate.
constexpr double kObjectiveScale = 1e-6;
constexpr double kBytesScale = 1.0 / (1 << 20);

/// The integer program in triplet form.
class ProgramBuilder {
public:
  int addColumn(double cost, double lower, double upper, bool integer) {
    objective.push_back(cost);
    lowers.push_back(lower);
    uppers.push_back(upper);
    integers.push_back(integer);
    return objective.size() - 1;
  }
  /// Adds a row lower <= sum(coefficients) <= upper.
  void addRow(const std::map<int, double> &coefficients, double lower,
              double upper) {
    int row = rowLowers.size();
    rowStarts.push_back(elements.size());
    for (auto [column, value] : coefficients)
      if (value != 0) {
        rowIndices.push_back(row);
        columnIndices.push_back(column);
        elements.push_back(value);
      }
    rowLowers.push_back(lower);
    rowUppers.push_back(upper);
  }
  unsigned getNumColumns() const { return objective.size(); }
  unsigned getNumRows() const { return rowLowers.size(); }

  void load(OsiClpSolverInterface &solver) const {
    CoinPackedMatrix matrix(false, rowIndices.data(), columnIndices.data(),
                            elements.data(), elements.size());
    matrix.setDimensions(getNumRows(), getNumColumns());
    solver.loadProblem(matrix, lowers.data(), uppers.data(), objective.data(),
                       rowLowers.data(), rowUppers.data());
    for (auto [column, integer] : llvm::enumerate(integers))
      if (integer)
        solver.setInteger(column);
  }

  /// Adds the columns and rows added since `solver` had `columns` and
  /// `rows` (keeps its basis for a warm resolve).
  void sync(OsiClpSolverInterface &solver, unsigned columns,
            unsigned rows) const {
    for (unsigned c = columns; c < getNumColumns(); ++c)
      solver.addCol(CoinPackedVector(), lowers[c], uppers[c], objective[c]);
    for (unsigned r = rows; r < getNumRows(); ++r) {
      size_t begin = rowStarts[r];
      size_t end = r + 1 < getNumRows() ? rowStarts[r + 1] : elements.size();
      solver.addRow(CoinPackedVector(end - begin, &columnIndices[begin],
                                     &elements[begin]),
                    rowLowers[r], rowUppers[r]);
    }
  }
  bool isInteger(unsigned column) const { return integers[column]; }

private:
  std::vector<double> objective, lowers, uppers;
  std::vector<bool> integers;
  std::vector<int> rowIndices, columnIndices;
  std::vector<double> elements, rowLowers, rowUppers;
  std::vector<size_t> rowStarts;
};

/// Class of each row (or column) of a matrix: equal vectors, equal class.
static std::vector<unsigned> classesOf(const std::vector<int64_t> &matrix,
                                       size_t rows, size_t columns,
                                       bool byColumn, unsigned &numClasses) {
  std::map<std::vector<int64_t>, unsigned> seen;
  std::vector<unsigned> classes;
  size_t count = byColumn ? columns : rows;
  for (size_t k = 0; k < count; ++k) {
    std::vector<int64_t> vector;
    for (size_t l = 0, e = byColumn ? rows : columns; l < e; ++l)
      vector.push_back(byColumn ? matrix[l * columns + k]
                                : matrix[k * columns + l]);
    classes.push_back(seen.emplace(vector, seen.size()).first->second);
  }
  numClasses = seen.size();
  return classes;
}

/// The product of two decisions' indicators over the classes of one
/// matrix: a representative strategy of each row and column class, and the
/// y column of each class pair.
struct Linearization {
  std::vector<unsigned> rowOf, columnOf;
  std::vector<int> y;
  bool empty() const { return y.empty(); }
};

/// The edges between two decisions (the lower-numbered first), summed.
struct MergedEdge {
  std::vector<int64_t> costs;
  /// The edges' buffers, oriented like `costs` (summed per interval), each
  /// linearized on its own classes once a memory row needs it: a problem
  /// whose memory never binds keeps the program it had without them.
  struct Buffer {
    int64_t start, end;
    std::vector<int64_t> usages;
    Linearization linearized;
  };
  std::vector<Buffer> buffers;
};

class CbcFormulation {
public:
  CbcFormulation(const Problem &problem, const SolveOptions &options)
      : problem(problem), options(options) {}

  void build() {
    mergeEdges();
    addDecisions();
    for (auto &[ends, edge] : merged)
      if (ends.first != ends.second)
        addEdge(ends.first, ends.second, edge);
  }
  const ProgramBuilder &getProgram() const { return program; }
  /// The strategies a (primal) solution picks.
  std::vector<unsigned> decode(const double *values) const {
    std::vector<unsigned> strategies(problem.nodes.size(), 0);
    for (unsigned n = 0; n < problem.nodes.size(); ++n) {
      int first = firstColumn[problem.getLeader(n)];
      size_t count = problem.nodes[n].costs.size();
      strategies[n] = std::max_element(values + first, values + first + count) -
                      (values + first);
    }
    return strategies;
  }

private:
  void addDecisions() {
    firstColumn.assign(problem.nodes.size(), -1);
    std::vector<std::vector<double>> costs(problem.nodes.size());
    for (auto [n, node] : llvm::enumerate(problem.nodes)) {
      std::vector<double> &leaderCosts = costs[problem.getLeader(n)];
      leaderCosts.resize(node.costs.size(), 0);
      for (auto [s, cost] : llvm::enumerate(node.costs))
        leaderCosts[s] += cost * kObjectiveScale;
    }
    // Both ends of an edge follow one decision: only the diagonal happens.
    for (auto &[ends, edge] : merged)
      if (ends.first == ends.second)
        for (size_t i = 0, e = costs[ends.first].size(); i < e; ++i)
          costs[ends.first][i] += edge.costs[i * e + i] * kObjectiveScale;
    for (auto [n, node] : llvm::enumerate(problem.nodes)) {
      if (node.follows >= 0)
        continue;
      std::map<int, double> pickOne;
      for (double cost : costs[n]) {
        int column = program.addColumn(cost, 0, 1, true);
        if (firstColumn[n] < 0)
          firstColumn[n] = column;
        pickOne[column] = 1;
      }
      program.addRow(pickOne, 1, 1);
    }
  }

  /// Sums the matrices of edges between the same two decisions.
  void mergeEdges() {
    for (const Problem::Edge &edge : problem.edges) {
      unsigned from = problem.getLeader(edge.from);
      unsigned to = problem.getLeader(edge.to);
      size_t rows = problem.nodes[from].costs.size();
      size_t columns = problem.nodes[to].costs.size();
      bool swap = from > to;
      MergedEdge &sum =
          merged[swap ? std::pair{to, from} : std::pair{from, to}];
      auto oriented = [&](const std::vector<int64_t> &matrix,
                          std::vector<int64_t> &into) {
        into.resize(rows * columns, 0);
        for (size_t i = 0; i < rows; ++i)
          for (size_t j = 0; j < columns; ++j)
            into[swap ? j * rows + i : i * columns + j] +=
                matrix[i * columns + j];
      };
      oriented(edge.costs, sum.costs);
      if (llvm::none_of(edge.usages, [](int64_t u) { return u != 0; }))
        continue;
      auto buffer = llvm::find_if(sum.buffers, [&](const auto &b) {
        return b.start == edge.start && b.end == edge.end;
      });
      if (buffer == sum.buffers.end())
        buffer = sum.buffers.insert(
            buffer, MergedEdge::Buffer{edge.start, edge.end, {}, {}});
      oriented(edge.usages, buffer->usages);
    }
  }

  void addEdge(unsigned from, unsigned to, MergedEdge &edge) {
    if (llvm::any_of(edge.costs, [](int64_t c) { return c != 0; }))
      linearize(from, to, edge.costs, true);
  }

  /// Continuous y >= 0 per class pair of `matrix` (priced at it when
  /// `priced`) with Alpa's marginal rows: the y of a row class sum to
  /// `from`'s indicators of that class, and likewise for columns.
  Linearization linearize(unsigned from, unsigned to,
                          const std::vector<int64_t> &matrix, bool priced) {
    size_t rows = problem.nodes[from].costs.size();
    size_t columns = problem.nodes[to].costs.size();
    unsigned numRows, numColumns;
    std::vector<unsigned> rowClass =
        classesOf(matrix, rows, columns, false, numRows);
    std::vector<unsigned> columnClass =
        classesOf(matrix, rows, columns, true, numColumns);
    Linearization result;
    result.rowOf.resize(numRows);
    result.columnOf.resize(numColumns);
    for (size_t i = rows; i-- > 0;)
      result.rowOf[rowClass[i]] = i;
    for (size_t j = columns; j-- > 0;)
      result.columnOf[columnClass[j]] = j;
    std::vector<int> &y = result.y;
    y.resize(numRows * numColumns);
    for (unsigned a = 0; a < numRows; ++a)
      for (unsigned b = 0; b < numColumns; ++b)
        y[a * numColumns + b] = program.addColumn(
            priced ? matrix[result.rowOf[a] * columns + result.columnOf[b]] *
                         kObjectiveScale
                   : 0,
            0, 1, false);
    for (unsigned a = 0; a < numRows; ++a) {
      std::map<int, double> row;
      for (unsigned b = 0; b < numColumns; ++b)
        row[y[a * numColumns + b]] = 1;
      for (size_t i = 0; i < rows; ++i)
        if (rowClass[i] == a)
          row[firstColumn[from] + i] = -1;
      program.addRow(row, 0, 0);
    }
    for (unsigned b = 0; b < numColumns; ++b) {
      std::map<int, double> column;
      for (unsigned a = 0; a < numRows; ++a)
        column[y[a * numColumns + b]] = 1;
      for (size_t j = 0; j < columns; ++j)
        if (columnClass[j] == b)
          column[firstColumn[to] + j] = -1;
      program.addRow(column, 0, 0);
    }
    return result;
  }

  /// Adds the live bytes of node `n` to `row`.
  void addUsage(std::map<int, double> &row, unsigned n) const {
    const Problem::Node &node = problem.nodes[n];
    int first = firstColumn[problem.getLeader(n)];
    for (auto [s, usage] : llvm::enumerate(node.usages))
      row[first + s] += usage * kBytesScale;
  }

public:
  /// Adds the memory row of op position `t`: live bytes minus the excess
  /// E at most the usage limit.
  void addMemoryRow(int64_t t) {
    if (excess < 0) {
      excess = program.addColumn(options.penaltyPerByte / kBytesScale *
                                     kObjectiveScale,
                                 0, COIN_DBL_MAX, false);
      // Values live at every position (arguments) are summed once.
      always = program.addColumn(0, 0, COIN_DBL_MAX, false);
      int64_t last = 0;
      for (const Problem::Node &node : problem.nodes)
        last = std::max(last, node.end);
      std::map<int, double> alwaysRow{{always, -1}};
      for (auto [n, node] : llvm::enumerate(problem.nodes)) {
        if (node.start <= 0 && node.end >= last)
          addUsage(alwaysRow, n);
        else
          others.push_back(n);
      }
      program.addRow(alwaysRow, 0, 0);
    }
    std::map<int, double> row{{always, 1}, {excess, -1}};
    for (unsigned n : others)
      if (problem.nodes[n].start <= t && t < problem.nodes[n].end)
        addUsage(row, n);
    for (auto &[ends, edge] : merged)
      for (MergedEdge::Buffer &buffer : edge.buffers)
        if (buffer.start <= t && t < buffer.end)
          addBufferUsage(row, ends.first, ends.second, buffer);
    program.addRow(row, -COIN_DBL_MAX, problem.usageLimit * kBytesScale);
  }

private:
  /// Adds an edge buffer's bytes to `row`: through the indicators when
  /// both ends follow one decision (only the diagonal happens), else
  /// through the y of each class pair of its usages (linearized now if no
  /// row needed it before).
  void addBufferUsage(std::map<int, double> &row, unsigned from, unsigned to,
                      MergedEdge::Buffer &buffer) {
    const std::vector<int64_t> &usages = buffer.usages;
    size_t columns = problem.nodes[to].costs.size();
    if (from == to) {
      for (size_t i = 0; i < columns; ++i)
        row[firstColumn[from] + i] += usages[i * columns + i] * kBytesScale;
      return;
    }
    Linearization &linear = buffer.linearized;
    if (linear.empty())
      linear = linearize(from, to, usages, false);
    for (auto [a, i] : llvm::enumerate(linear.rowOf))
      for (auto [b, j] : llvm::enumerate(linear.columnOf))
        row[linear.y[a * linear.columnOf.size() + b]] +=
            usages[i * columns + j] * kBytesScale;
  }

  const Problem &problem;
  const SolveOptions &options;
  ProgramBuilder program;
  std::map<std::pair<unsigned, unsigned>, MergedEdge> merged;
  /// Column of strategy 0 of each decision node (-1 for followers).
  std::vector<int> firstColumn;
  /// Memory rows: the excess and all-time columns, and the nodes that are
  /// not live at every position.
  int excess = -1, always = -1;
  std::vector<unsigned> others;
};

} // namespace

/// "600", "0.001": as many digits as needed.
static std::string formatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", seconds);
  return text;
}

/// One CBC run.
struct CbcRun {
  std::vector<unsigned> strategies;
  bool found = false, optimal = false, timedOut = false;
  double bound = 0;
};

static CbcRun runCbc(const CbcFormulation &formulation, double seconds,
                     double cutoff) {
  OsiClpSolverInterface solver;
  formulation.getProgram().load(solver);
  // TOAST_ILP_LOG=1 shows CBC's log (on stdout) when tuning.
  const char *log = std::getenv("TOAST_ILP_LOG");
  int logLevel = log ? std::atoi(log) : 0;
  solver.messageHandler()->setLogLevel(logLevel);
  CbcModel model(solver);
  model.setLogLevel(logLevel);
  model.messageHandler()->setLogLevel(logLevel);
  CbcMain0(model);
  std::vector<std::string> args = {"toast-ilp", "-log", log ? log : "0", "-sec",
                                   formatSeconds(seconds)};
  if (const char *extra = std::getenv("TOAST_ILP_ARGS"))
    for (llvm::StringRef arg : llvm::split(extra, ' '))
      if (!arg.empty())
        args.push_back(arg.str());
  // Solving the relaxation with the dual simplex first, then branch and
  // bound from it, measured 4x faster than -solve alone (whose relaxation
  // took 12 of 16 s on a tiny t2b); the relaxation is often integral.
  // Only solutions better than the incumbent (in the scaled objective,
  // which never overestimates: memory rows not added yet cost nothing).
  args.push_back("-cutoff");
  args.push_back(llvm::formatv("{0:e12}", cutoff * kObjectiveScale * 1.000001));
  for (const char *arg : {"-dualS", "-solve", "-quit"})
    args.push_back(arg);
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());
  CbcMain1(argv.size(), argv.data(), model);
  CbcRun run;
  run.timedOut = model.isSecondsLimitReached();
  run.optimal = model.isProvenOptimal() && !run.timedOut;
  run.found = model.bestSolution() != nullptr;
  if (run.found)
    run.strategies = formulation.decode(model.bestSolution());
  run.bound = model.getBestPossibleObjValue() / kObjectiveScale;
  return run;
}

/// Writes `run` to `path` (runCbcWithDeadline's child).
static bool writeRun(const std::string &path, const CbcRun &run) {
  std::FILE *out = std::fopen(path.c_str(), "wb");
  if (!out)
    return false;
  char flags[3] = {run.found, run.optimal, run.timedOut};
  uint64_t count = run.strategies.size();
  bool ok =
      std::fwrite(flags, 1, 3, out) == 3 &&
      std::fwrite(&run.bound, sizeof(double), 1, out) == 1 &&
      std::fwrite(&count, sizeof(count), 1, out) == 1 &&
      std::fwrite(run.strategies.data(), sizeof(unsigned), count, out) == count;
  return std::fclose(out) == 0 && ok;
}

/// Reads what writeRun wrote.
static std::optional<CbcRun> readRun(const std::string &path) {
  std::FILE *in = std::fopen(path.c_str(), "rb");
  if (!in)
    return std::nullopt;
  CbcRun run;
  char flags[3];
  uint64_t count = 0;
  bool ok = std::fread(flags, 1, 3, in) == 3 &&
            std::fread(&run.bound, sizeof(double), 1, in) == 1 &&
            std::fread(&count, sizeof(count), 1, in) == 1 && count < (1u << 31);
  if (ok) {
    run.strategies.resize(count);
    ok =
        std::fread(run.strategies.data(), sizeof(unsigned), count, in) == count;
  }
  std::fclose(in);
  if (!ok)
    return std::nullopt;
  run.found = flags[0];
  run.optimal = flags[1];
  run.timedOut = flags[2];
  return run;
}

/// runCbc in a child process, killed once it outlives `seconds` by a tenth
/// and 5 s: CBC checks its time limit between its phases only, and its root
/// LP and probing on full-size U-Net (TPUv3: 148,000 rows, 1.6 million
/// columns) ran over 6 minutes past an 87 s limit. A killed or failed child
/// counts as a run over the limit that found nothing (the incumbent stays).
static CbcRun runCbcWithDeadline(const CbcFormulation &formulation,
                                 double seconds, double cutoff) {
  llvm::SmallString<128> path;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("toast-cbc", "bin", fd, path))
    return runCbc(formulation, seconds, cutoff);
  ::close(fd);
  llvm::FileRemover remover(path);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t child = ::fork();
  if (child < 0)
    return runCbc(formulation, seconds, cutoff);
  if (child == 0) {
    bool written =
        writeRun(path.str().str(), runCbc(formulation, seconds, cutoff));
    std::fflush(stdout);
    ::_exit(written ? 0 : 1);
  }
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(seconds * 1.1 + 5);
  int status = 0;
  pid_t waited;
  // A signal may interrupt the wait; the child is still running then.
  while ((waited = ::waitpid(child, &status, WNOHANG)) == 0 ||
         (waited < 0 && errno == EINTR)) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::optional<CbcRun> run;
  if (waited == child && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    run = readRun(path.str().str());
  if (!run) {
    run.emplace();
    run->timedOut = true;
  }
  return *run;
}

/// Solves the LP relaxation (warm after the first time); when its optimum
/// is integral it is the integer program's, and branch and bound is not
/// needed (the usual case: found stays false otherwise).
static CbcRun solveRelaxation(const CbcFormulation &formulation,
                              OsiClpSolverInterface &lp,
                              std::pair<unsigned, unsigned> &synced,
                              double seconds) {
  const ProgramBuilder &program = formulation.getProgram();
  bool first = synced.first == 0;
  if (first)
    program.load(lp);
  else
    program.sync(lp, synced.first, synced.second);
  synced = {program.getNumColumns(), program.getNumRows()};
  lp.getModelPtr()->setMaximumWallSeconds(seconds);
  // The dual simplex, with presolve the first time (as CbcMain's -dualS):
  // Clp's default initial solve measured 30x slower here.
  lp.setHintParam(OsiDoDualInInitial, true, OsiHintDo);
  lp.setHintParam(OsiDoPresolveInInitial, true, OsiHintDo);
  if (first)
    lp.initialSolve();
  else
    lp.resolve();
  CbcRun run;
  if (!lp.isProvenOptimal())
    return run;
  const double *values = lp.getColSolution();
  for (unsigned c = 0; c < program.getNumColumns(); ++c)
    if (program.isInteger(c) &&
        std::abs(values[c] - std::round(values[c])) > 1e-7)
      return run;
  run.found = run.optimal = true;
  run.strategies = formulation.decode(values);
  run.bound = lp.getObjValue() / kObjectiveScale;
  return run;
}

/// Positions whose live bytes exceed the limit by more than the excess
/// the rows in `added` account for, worst first (at most `count`).
static std::vector<int64_t>
violatedPositions(const Problem &problem, llvm::ArrayRef<unsigned> strategies,
                  const std::set<int64_t> &added, size_t count) {
  std::vector<int64_t> profile = usageProfile(problem, strategies);
  int64_t modeled = 0;
  for (int64_t t : added)
    modeled = std::max(modeled, profile[t] - problem.usageLimit);
  // A position where a live range ends holds a maximal live set.
  // So does one where an edge's buffers end.
  std::set<int64_t> candidates;
  auto consider = [&](int64_t start, int64_t end) {
    if (end > start && end > 0 && !added.count(end - 1) &&
        profile[end - 1] - problem.usageLimit > modeled)
      candidates.insert(end - 1);
  };
  for (const Problem::Node &node : problem.nodes)
    consider(node.start, node.end);
  for (const Problem::Edge &edge : problem.edges)
    if (!edge.usages.empty())
      consider(edge.start, edge.end);
  std::vector<int64_t> worst(candidates.begin(), candidates.end());
  llvm::sort(worst,
             [&](int64_t a, int64_t b) { return profile[a] > profile[b]; });
  if (worst.size() > count)
    worst.resize(count);
  return worst;
}

llvm::Expected<Solution> solve(const Problem &problem,
                               const SolveOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  CbcFormulation formulation(problem, options);
  formulation.build();
  // Memory rows are added lazily (constraint generation): solve, add the
  // rows of the positions the solution overfills beyond its modeled
  // excess, solve again, until none is left. Most positions never bind.
  Solution solution;
  solution.strategies = improveLocally(
      problem, std::vector<unsigned>(problem.nodes.size(), 0),
      options.penaltyPerByte, std::min(60.0, options.timeLimitSeconds / 10));
  solution.objective =
      evaluate(problem, solution.strategies, options.penaltyPerByte);
  std::set<int64_t> added;
  bool found = false; // CBC improved on the local search
  CbcRun run;
  // The relaxation, kept across memory rounds so that each re-solve starts
  // from the last basis.
  OsiClpSolverInterface relaxation;
  relaxation.messageHandler()->setLogLevel(0);
  std::pair<unsigned, unsigned> synced{0, 0};
  while (true) {
    double remaining = options.timeLimitSeconds - elapsed();
    if (remaining <= 0) {
      run.timedOut = true;
      break;
    }
    run = solveRelaxation(formulation, relaxation, synced, remaining);
    if (!run.found) {
      // Branch and bound gets what the relaxation left of the limit.
      remaining = options.timeLimitSeconds - elapsed();
      if (remaining <= 0) {
        run.timedOut = true;
        break;
      }
      run = runCbcWithDeadline(formulation, remaining, solution.objective);
    }
    if (run.found) {
      double objective =
          evaluate(problem, run.strategies, options.penaltyPerByte);
      if (objective < solution.objective) {
        solution.strategies = run.strategies;
        solution.objective = objective;
        found = true;
      }
    }
    if (run.timedOut)
      break;
    // The bound (over the rows so far, so below the true optimum) reaches
    // the incumbent: the incumbent is optimal.
    if (run.found && run.optimal &&
        run.bound >= solution.objective * (1 - 1e-9))
      break;
    // Nothing beats the incumbent even with memory rows missing (which
    // only lower the objective): the incumbent is optimal.
    if (!run.found) {
      run.optimal = true;
      break;
    }
    if (options.penaltyPerByte <= 0)
      break;
    std::vector<int64_t> violated =
        violatedPositions(problem, run.strategies, added, 16);
    if (violated.empty())
      break;
    for (int64_t t : violated) {
      formulation.addMemoryRow(t);
      added.insert(t);
    }
    ++solution.memoryRounds;
  }
  solution.variables = formulation.getProgram().getNumColumns();
  solution.rows = formulation.getProgram().getNumRows();
  solution.memoryRows = added.size();
  solution.timedOut = run.timedOut;
  solution.optimal = run.optimal;
  solution.seconds = elapsed();
  if (!found && solution.timedOut)
    solution.note = llvm::formatv("time limit ({0} s): CBC found nothing "
                                  "better than the local search",
                                  formatSeconds(options.timeLimitSeconds));
  else if (solution.optimal)
    solution.note = "optimal";
  else if (solution.timedOut)
    solution.note =
        llvm::formatv("time limit ({0} s): best solution found, "
                      "lower bound {1:e3}",
                      formatSeconds(options.timeLimitSeconds), run.bound)
            .str();
  else
    solution.note = "stopped without proof of optimality";
  return solution;
}
#else
llvm::Expected<Solution> solve(const Problem &, const SolveOptions &) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "algorithm=ilp: Toast was built without CBC (install coinor-libcbc-dev "
      "and reconfigure)");
}
#endif

} // namespace toast::search::ilp
