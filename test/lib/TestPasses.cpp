//===- TestPasses.cpp - Registration of test-only passes ------------------===//

#include "TestPasses.h"

void toast::test::registerTestPasses() {
  registerTestShardingRulesPass();
  registerTestApplyNdaActionPass();
}
