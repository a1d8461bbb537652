//===- InitAllPasses.cpp - Register every Toast pass ---------------------===//

#include "toast/InitAllPasses.h"

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Export/Passes.h"
#include "toast/Partition/Passes.h"
#include "toast/Simulator/Passes.h"
#include "toast/Transforms/Passes.h"

void toast::registerAllPasses() {
  registerToastPasses();
  partition::registerPartitionPasses();
  partir_hlo::registerPartIRHLOPasses();
  xla::registerExportPasses();
  sim::registerSimulatorPasses();
}
