//===- JsonInput.cpp - Parsing user JSON files without deep recursion -----===//

#include "toast/Simulator/JsonInput.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

Expected<json::Value> toast::sim::parseJsonInput(StringRef text) {
  unsigned depth = 0;
  bool inString = false, escaped = false;
  for (auto [offset, c] : llvm::enumerate(text)) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return createStringError(
            inconvertibleErrorCode(),
            formatv("nested more than {0} levels deep (at byte {1})",
                    kMaxJsonDepth, offset));
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return json::parse(text);
}
