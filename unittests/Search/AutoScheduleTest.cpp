//===- AutoScheduleTest.cpp - Automatic tactics in JSON schedules ---------===//

#include "toast/Partition/Schedule.h"

#include "gtest/gtest.h"

using namespace toast::partition;

namespace {

mlir::FailureOr<Schedule> parse(const std::string &tactics,
                                std::string &error) {
  return parseSchedule(
      R"({"mesh": {"B": 4, "M": 2}, "tactics": [)" + tactics + "]}", error);
}

TEST(AutoSchedule, ParsesEveryOption) {
  std::string error;
  auto schedule = parse(R"(
    {"name": "Auto", "kind": "automatic", "axes": ["B", "M"],
     "device": "tpuv3", "seed": 7, "budget_s": 2.5, "threads": 2,
     "rollouts": 100, "min_dims": 4, "algorithm": "automap"})",
                        error);
  ASSERT_TRUE(succeeded(schedule)) << error;
  ASSERT_EQ(schedule->automatic.size(), 1u);
  const AutomaticTactic &tactic = schedule->automatic[0];
  EXPECT_EQ(tactic.name, "Auto");
  EXPECT_EQ(tactic.axes.size(), 2u);
  EXPECT_EQ(tactic.axes[1], "M");
  EXPECT_EQ(tactic.device, "tpuv3");
  EXPECT_EQ(tactic.seed, 7u);
  EXPECT_EQ(tactic.budgetSeconds, 2.5);
  EXPECT_EQ(tactic.threads, 2u);
  EXPECT_EQ(tactic.rollouts, 100u);
  EXPECT_EQ(tactic.minDims, 4u);
  EXPECT_EQ(tactic.algorithm, "automap");
  EXPECT_EQ(tactic.position, 0u);
}

TEST(AutoSchedule, DefaultsAndPositionAfterManualTactics) {
  std::string error;
  auto schedule = parse(R"(
    {"name": "BP", "kind": "manual", "axis": "B", "inputs": {"arg0": 0}},
    {"kind": "automatic", "axes": ["M"]})",
                        error);
  ASSERT_TRUE(succeeded(schedule)) << error;
  ASSERT_EQ(schedule->tactics.size(), 1u);
  ASSERT_EQ(schedule->automatic.size(), 1u);
  const AutomaticTactic &tactic = schedule->automatic[0];
  EXPECT_EQ(tactic.position, 1u);
  EXPECT_EQ(tactic.name, "auto");
  EXPECT_EQ(tactic.algorithm, "mcts");
  EXPECT_EQ(tactic.seed, 1u);
  EXPECT_EQ(tactic.budgetSeconds, 30);
  EXPECT_EQ(tactic.threads, 1u);
  EXPECT_TRUE(tactic.device.empty());
}

TEST(AutoSchedule, ParsesTheExhaustiveSearchAndTheStoppingOptions) {
  std::string error;
  auto schedule = parse(R"(
    {"kind": "automatic", "algorithm": "exhaustive", "max_states": 5000,
     "restart_patience": 7, "min_gain": 0.005, "patience_ratio": 1.5,
     "restart_neighbours": 40, "patience_work": 1000})",
                        error);
  ASSERT_TRUE(succeeded(schedule)) << error;
  const AutomaticTactic &tactic = schedule->automatic[0];
  EXPECT_EQ(tactic.algorithm, "exhaustive");
  EXPECT_EQ(tactic.maxStates, 5000u);
  EXPECT_EQ(tactic.restartPatience, 7u);
  EXPECT_DOUBLE_EQ(tactic.minGain, 0.005);
  EXPECT_DOUBLE_EQ(tactic.patienceRatio, 1.5);
  EXPECT_EQ(tactic.restartNeighbours, 40u);
  EXPECT_EQ(tactic.patienceWork, 1000u);
  // The defaults.
  auto defaults = parse(R"({"kind": "automatic"})", error);
  ASSERT_TRUE(succeeded(defaults)) << error;
  EXPECT_EQ(defaults->automatic[0].maxStates, 100000u);
  EXPECT_EQ(defaults->automatic[0].restartPatience, 30u);
  EXPECT_DOUBLE_EQ(defaults->automatic[0].minGain, 0.0);
  EXPECT_DOUBLE_EQ(defaults->automatic[0].patienceRatio, 0.0);
  EXPECT_EQ(defaults->automatic[0].restartNeighbours, 128u);
  EXPECT_EQ(defaults->automatic[0].patienceWork, 8000000u);
  EXPECT_FALSE(defaults->automatic[0].donate);
  EXPECT_FALSE(defaults->automatic[0].tf32);
  // The simulator's pricing options.
  auto priced =
      parse(R"({"kind": "automatic", "donate": true, "tf32": true})", error);
  ASSERT_TRUE(succeeded(priced)) << error;
  EXPECT_TRUE(priced->automatic[0].donate);
  EXPECT_TRUE(priced->automatic[0].tf32);
}

TEST(AutoSchedule, ReportsBadOptionsWithTheirPath) {
  struct Case {
    const char *tactic;
    const char *error;
  } cases[] = {
      {R"({"kind": "automatic", "algorithm": "greedy"})",
       "schedule.tactics[0].algorithm: unknown algorithm 'greedy' (expected "
       "\"mcts\", \"random\", \"automap\", \"exhaustive\" or \"ilp\")"},
      {R"({"kind": "automatic", "algorithm": "ilp", "ilp_time_limit_s": 0})",
       "schedule.tactics[0].ilp_time_limit_s: expected a number of seconds "
       "> 0"},
      {R"({"kind": "automatic", "budget_s": -1})",
       "schedule.tactics[0].budget_s: expected a number of seconds >= 0"},
      {R"({"kind": "automatic", "threads": 0})",
       "schedule.tactics[0].threads: expected an integer between 1 and "
       "4294967295"},
      // Wider than the unsigned field: an error, not a wrap to 1.
      {R"({"kind": "automatic", "threads": 4294967297})",
       "schedule.tactics[0].threads: expected an integer between 1 and "
       "4294967295"},
      {R"({"kind": "automatic", "min_dims": 4294967296})",
       "schedule.tactics[0].min_dims: expected an integer between 1 and "
       "4294967295"},
      {R"({"kind": "automatic", "iopddl_out": "p.json"})",
       "schedule.tactics[0].iopddl_out: needs \"algorithm\": \"ilp\", got "
       "\"mcts\""},
      {R"({"kind": "automatic", "axes": "B"})",
       "schedule.tactics[0].axes: expected an array of mesh axis names"},
      {R"({"kind": "automatic", "axis": "B"})",
       "schedule.tactics[0]: unknown key 'axis' of an automatic tactic "
       "(expected name, kind, axes, device, algorithm, seed, budget_s, "
       "threads, rollouts, min_dims, restart_patience, min_gain, "
       "patience_ratio, climb_memory, restart_neighbours, patience_work, "
       "max_states, ilp_time_limit_s, iopddl_out, donate, tf32, pad, "
       "context_actions, "
       "list_actions)"},
      {R"({"kind": "automatic", "patience_ratio": -1})",
       "schedule.tactics[0].patience_ratio: expected a finite number >= 0"},
      {R"({"kind": "automatic", "min_gain": 1})",
       "schedule.tactics[0].min_gain: expected a number in [0, 1)"},
      {R"({"kind": "automatic", "min_gain": -0.1})",
       "schedule.tactics[0].min_gain: expected a number in [0, 1)"},
      {R"({"kind": "automatic", "max_states": 0})",
       "schedule.tactics[0].max_states: expected an integer >= 1"},
      {R"({"kind": "automatic", "restart_patience": -2})",
       "schedule.tactics[0].restart_patience: expected an integer between 0 "
       "and 4294967295"},
      {R"({"kind": "automatic", "donate": 1})",
       "schedule.tactics[0].donate: expected true or false"},
      {R"({"kind": "automatic", "tf32": "yes"})",
       "schedule.tactics[0].tf32: expected true or false"},
      {R"({"kind": "automatic", "climb_memory": 0})",
       "schedule.tactics[0].climb_memory: expected true or false"},
      {R"({"kind": "automatic", "patience_work": -1})",
       "schedule.tactics[0].patience_work: expected an integer >= 0"},
      {R"({"kind": "automatic", "restart_neighbours": 1.5})",
       "schedule.tactics[0].restart_neighbours: expected an integer >= 0"},
  };
  for (const Case &c : cases) {
    std::string error;
    EXPECT_TRUE(failed(parse(c.tactic, error))) << c.tactic;
    EXPECT_EQ(error, c.error);
  }
}

} // namespace
