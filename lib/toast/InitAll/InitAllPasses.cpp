//===- InitAllPasses.cpp - Register every Toast pass ---------------------===//

#include "toast/InitAllPasses.h"

#include "toast/Partition/Passes.h"
#include "toast/Transforms/Passes.h"

void toast::registerAllPasses() {
  registerToastPasses();
  partition::registerPartitionPasses();
}
