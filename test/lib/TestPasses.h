//===- TestPasses.h - Registration of test-only passes ---------*- C++ -*-===//
//
// The passes under test/lib exist only to expose analyses and interfaces to
// lit tests (`toast-opt --toast-test-*`). toast-opt registers them; the
// installed libraries do not contain them.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_TEST_LIB_TESTPASSES_H
#define TOAST_TEST_LIB_TESTPASSES_H

namespace toast::test {

/// `--toast-test-print-sharding-rules`: annotates every op with its
/// sharding rule (Interfaces/TestShardingRules.cpp).
void registerTestShardingRulesPass();

/// `--toast-test-apply-nda-action`: applies one NDA search action and
/// saves the sharding (Search/TestApplyNdaAction.cpp).
void registerTestApplyNdaActionPass();

/// Registers every test pass.
void registerTestPasses();

} // namespace toast::test

#endif // TOAST_TEST_LIB_TESTPASSES_H
