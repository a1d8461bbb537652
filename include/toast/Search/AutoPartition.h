//===- AutoPartition.h - The AutomaticPartition tactic -----------*- C++
//-*-===//
//
// AutomaticPartition(axes, options) (TOAST §4, design.md §4 and §6): builds
// the NDA action space of the function a ShardingState belongs to, starting
// from that state (so it composes with earlier manual tactics), searches it
// with MCTS (or a baseline, for comparisons) under the analytic cost of the
// chosen device, and writes the winning state back into the ShardingState.
// Materializing that state (ShardingState::materializeCore) then gives the
// usual PartIR:Core program.
//
// Usable from C++ (below), from JSON schedules ({"kind": "automatic", ...},
// docs/schedules.md) and as the pass --toast-auto-partition.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_AUTOPARTITION_H
#define TOAST_SEARCH_AUTOPARTITION_H

#include "toast/Partition/ShardingState.h"
#include "toast/Search/Mcts.h"
#include "toast/Search/ShardingSpace.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace toast::search {

enum class Algorithm { Mcts, Random, AutoMap, Exhaustive, Ilp };

/// "mcts", "random", "automap", "exhaustive" or "ilp".
std::optional<Algorithm> parseAlgorithm(llvm::StringRef name);
llvm::StringRef getAlgorithmName(Algorithm algorithm);
/// The accepted names in words, for error messages.
constexpr const char *kAlgorithmNames =
    "mcts, random, automap, exhaustive or ilp";

struct AutoOptions {
  AutoOptions() { search.budgetSeconds = 30; }

  /// Mesh axes the search may shard on; empty: all axes of the mesh.
  std::vector<std::string> axes;
  /// Device whose cost model scores states (a name or "file:PATH").
  std::string device = "a100";
  Algorithm algorithm = Algorithm::Mcts;
  /// Seed, threads, budget (30 s by default; an upper bound, MCTS stops by
  /// itself when it has converged), search knobs and the state limit of
  /// exhaustive enumeration.
  SearchOptions search;
  /// Actions touching fewer dimensions are pruned (TOAST §4.2).
  unsigned minDims = 10;
  /// algorithm=ilp: CBC's time limit (Alpa's 600 s) and, if not empty, a
  /// file that receives the decision problem as IOPDDL JSON.
  double ilpTimeLimitSeconds = 600;
  std::string iopddlOut;
  /// Price states with donated arguments / f32 contractions at TF32 (the
  /// simulator's `donate` and `tf32` options).
  bool donate = false;
  bool tf32 = false;
  /// Shard indivisible dimensions by padding them (NdaEnvironmentOptions).
  bool pad = true;
  /// Also offer context actions (NdaEnvironmentOptions::contextActions).
  bool contextActions = false;
  /// Writes every action of the space in words to `progress` before the
  /// search (what the search chooses from).
  bool listActions = false;
  /// Receives progress lines (rounds, best cost, elapsed time) and the
  /// final report; null: silent.
  llvm::raw_ostream *progress = &llvm::errs();
};

struct AutoReport {
  Algorithm algorithm = Algorithm::Mcts;
  SearchResult search;
  /// The chosen actions in words, in order.
  std::vector<std::string> actions;
  /// Lines printed after them that are no action (the ILP's count of the
  /// ops that loop over mesh axes).
  std::vector<std::string> actionNotes;
  /// Analytic costs of the start state and of the chosen state.
  AnalyticCost initial, best;
  /// Seconds spent building the action space (NDA, actions).
  double setupSeconds = 0;
};

/// Runs AutomaticPartition on `state` (the state earlier tactics left; it
/// receives the result). Fails with a diagnostic on the function for an
/// unknown axis or device, invalid options or a start state the NDA space
/// cannot express.
mlir::FailureOr<AutoReport> automaticPartition(partition::ShardingState &state,
                                               const AutoOptions &options);

/// Makes automaticPartition the automatic tactic of JSON schedules and
/// partition() (toast/Partition/Schedule.h).
void registerAutomaticTactic();

} // namespace toast::search

#endif // TOAST_SEARCH_AUTOPARTITION_H
