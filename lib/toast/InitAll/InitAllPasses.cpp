//===- InitAllPasses.cpp - Register every Toast pass ---------------------===//

#include "toast/InitAllPasses.h"

#include "toast/Analysis/Passes.h"
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Dialect/PartIR/Temporal/Passes.h"
#include "toast/Export/Passes.h"
#include "toast/Partition/Passes.h"
#include "toast/Search/AutoPartition.h"
#include "toast/Search/Passes.h"
#include "toast/Simulator/Passes.h"
#include "toast/Transforms/Passes.h"

void toast::registerAllPasses() {
  registerToastPasses();
  partition::registerPartitionPasses();
  partir_hlo::registerPartIRHLOPasses();
  partir_temporal::registerPartIRTemporalPasses();
  sim::registerSimulatorPasses();
  registerNdaPasses();
  xla::registerExportPasses();
  search::registerSearchPasses();
  // JSON schedules and partition() run automatic tactics through this.
  search::registerAutomaticTactic();
}
