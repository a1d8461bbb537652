//===- InitAllPasses.cpp - Register every Toast pass ---------------------===//

#include "toast/InitAllPasses.h"

#include "toast/Transforms/Passes.h"

void toast::registerAllPasses() { registerToastPasses(); }
