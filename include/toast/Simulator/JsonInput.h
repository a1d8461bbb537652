//===- JsonInput.h - User JSON files without deep recursion -----*- C++ -*-===//
//
// Device files, schedules, baselines and IOPDDL problems are JSON that users
// write. llvm::json::parse recurses once per nesting level, so a file of a
// hundred thousand '[' overflows the stack; every such input goes through
// parseJsonInput, which refuses deep nesting first.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_JSONINPUT_H
#define TOAST_SIMULATOR_JSONINPUT_H

#include "llvm/Support/JSON.h"

namespace toast::sim {

/// The deepest nesting of arrays and objects parseJsonInput accepts; real
/// inputs nest fewer than ten levels.
constexpr unsigned kMaxJsonDepth = 512;

/// llvm::json::parse, after checking that `text` nests arrays and objects
/// at most kMaxJsonDepth deep (brackets inside strings do not count).
llvm::Expected<llvm::json::Value> parseJsonInput(llvm::StringRef text);

} // namespace toast::sim

#endif // TOAST_SIMULATOR_JSONINPUT_H
