//===- CorpusRoundTripTest.cpp - Every corpus file round-trips -----------===//
//
// The acceptance test of the StableHLO dialect: every file of the real
// corpus (models/ and stablehlo-testdata/) parses and verifies unedited,
// prints, and re-parses to identical text, in pretty and in generic form.
// The corpus folder comes from TOAST_CORPUS_DIR; when it is missing the test
// is skipped, except under CI (CI=true), where that is a failure.
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;

namespace {

std::string corpusDir() {
  const char *dir = std::getenv("TOAST_CORPUS_DIR");
  return dir ? dir : "";
}

bool underCI() {
  const char *ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

/// The .mlir files of `folder`, sorted.
std::vector<std::string> listMlirFiles(const std::string &folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(folder, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Parses `text` and prints it; returns an error message on failure.
bool parseAndPrint(llvm::StringRef text, bool generic, std::string &out) {
  // A fresh context per parse, as in separate toast-opt runs: resource
  // handles such as dense_resource<__elided__> are uniqued per context.
  DialectRegistry registry;
  toast::registerAllDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  llvm::raw_string_ostream diagOS(diagnostics);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx, diagOS);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&ctx));
  if (!module) {
    out = diagnostics.empty() ? "parse failed" : diagnostics;
    return false;
  }
  out.clear();
  llvm::raw_string_ostream os(out);
  module->print(os, OpPrintingFlags().printGenericOpForm(generic));
  return true;
}

/// Empty on success, else why `path` does not round-trip.
std::string checkRoundTrip(const std::string &path, bool generic) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "cannot read file";
  std::string first, second;
  if (!parseAndPrint((*buffer)->getBuffer(), generic, first))
    return "original: " + first;
  if (!parseAndPrint(first, generic, second))
    return "printed form does not re-parse: " + second;
  if (first != second)
    return "printing is not idempotent";
  return "";
}

void runFolder(const std::string &subfolder) {
  std::string dir = corpusDir();
  if (dir.empty() || !llvm::sys::fs::is_directory(dir + "/" + subfolder)) {
    if (underCI())
      FAIL() << "corpus folder '" << dir << "/" << subfolder
             << "' is missing (required under CI)";
    GTEST_SKIP() << "corpus folder '" << dir << "/" << subfolder
                 << "' not found; set TOAST_CORPUS_DIR";
  }
  std::vector<std::string> files = listMlirFiles(dir + "/" + subfolder);
  ASSERT_FALSE(files.empty()) << "no .mlir files in " << subfolder;
  size_t failures = 0;
  for (const std::string &file : files)
    for (bool generic : {false, true}) {
      std::string error = checkRoundTrip(file, generic);
      if (error.empty())
        continue;
      ++failures;
      ADD_FAILURE() << llvm::sys::path::filename(file).str()
                    << (generic ? " (generic)" : " (pretty)") << ": "
                    << error.substr(0, 2000);
    }
  std::cout << "[ corpus   ] " << subfolder << ": " << files.size()
            << " files, " << 2 * files.size() - failures << "/"
            << 2 * files.size() << " round trips passed\n";
}

TEST(CorpusRoundTrip, Models) { runFolder("models"); }
TEST(CorpusRoundTrip, StablehloTestdata) { runFolder("stablehlo-testdata"); }

} // namespace
