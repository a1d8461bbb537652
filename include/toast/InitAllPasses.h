//===- InitAllPasses.h - Register every Toast pass --------------*- C++ -*-===//
#ifndef TOAST_INITALLPASSES_H
#define TOAST_INITALLPASSES_H

namespace toast {

/// Registers all Toast passes and pipelines with the global pass registry
/// (what toast-opt exposes on its command line).
void registerAllPasses();

} // namespace toast

#endif // TOAST_INITALLPASSES_H
