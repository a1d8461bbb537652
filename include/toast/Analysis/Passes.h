//===- Passes.h - NDA passes ------------------------------------*- C++ -*-===//
#ifndef TOAST_ANALYSIS_PASSES_H
#define TOAST_ANALYSIS_PASSES_H

namespace toast {
/// Registers --toast-nda and --toast-test-nda-colors.
void registerNdaPasses();
} // namespace toast

#endif // TOAST_ANALYSIS_PASSES_H
