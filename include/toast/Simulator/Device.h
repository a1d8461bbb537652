//===- Device.h - Device specs for the analytical simulator -----*- C++ -*-===//
//
// A device is what the simulator needs to know about one accelerator of the
// mesh: peak FLOP/s per element type, HBM size and bandwidth, and the
// interconnect (bandwidth and latency) that collectives use, optionally per
// mesh axis. Built-in specs cover the papers' hardware (A100-40GB, P100,
// TPUv3) and H100; users describe other devices in JSON (docs/simulator.md).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_DEVICE_H
#define TOAST_SIMULATOR_DEVICE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace toast::sim {

/// One interconnect link class. Collectives are priced as rings whose every
/// step costs `latency` and moves data at `bandwidth`.
struct LinkSpec {
  /// Bytes per second one device sends into the ring (one direction).
  double bandwidth = 0;
  /// Seconds per ring step (α).
  double latency = 0;
};

/// Everything the cost model knows about one device.
struct DeviceSpec {
  /// Short name (`a100`) and a human description.
  std::string name;
  std::string description;
  /// Peak dense FLOP/s keyed by element type (`f64`, `f32`, `bf16`, `f16`,
  /// `f8`, `i8`, ...) and optionally `default`. Always has `f32`.
  std::map<std::string, double> peakFlops;
  /// HBM capacity (bytes) and bandwidth (bytes/s).
  double memoryBytes = 0;
  double memoryBandwidth = 0;
  /// Link used by every mesh axis without an entry in `axisLinks`.
  LinkSpec interconnect;
  /// Per-mesh-axis overrides (e.g. a slower inter-node axis).
  std::map<std::string, LinkSpec> axisLinks;

  /// Peak FLOP/s for arithmetic on `elementType`: the exact key, else
  /// `default`, else `f32`.
  double getPeakFlops(mlir::Type elementType) const;
  double getPeakFlops(llvm::StringRef key) const;
  /// Whether the device has a peak for `key` of its own (the exact key or
  /// `default`); getPeakFlops falls back to `f32` otherwise.
  bool hasPeakFlops(llvm::StringRef key) const;
  /// The link of mesh axis `axis`.
  const LinkSpec &getLink(llvm::StringRef axis) const;
};

/// The key `getPeakFlops` uses for an element type: `f32`, `bf16`, `f8`
/// (every 8-bit float), `i8`, `i32`, `c64`, ...
std::string getElementTypeKey(mlir::Type elementType);

/// Names of the built-in devices (`a100`, `h100`, `p100`, `tpuv3`).
llvm::ArrayRef<llvm::StringRef> getBuiltinDeviceNames();

/// The built-in device `name` (case-insensitive; `a100-40gb`, `tpu-v3` are
/// accepted aliases), or an error listing the known names.
llvm::Expected<DeviceSpec> getBuiltinDevice(llvm::StringRef name);

/// Parses and validates a JSON device description. `origin` names the
/// source in error messages.
llvm::Expected<DeviceSpec> parseDeviceJSON(llvm::StringRef text,
                                           llvm::StringRef origin = "<json>");

/// Reads a JSON device file.
llvm::Expected<DeviceSpec> loadDeviceFile(llvm::StringRef path);

/// Resolves a pass-option style device reference: a built-in name or
/// `file:PATH`.
llvm::Expected<DeviceSpec> lookupDevice(llvm::StringRef ref);

/// Serializes `device` in the JSON format `parseDeviceJSON` reads.
std::string deviceToJSON(const DeviceSpec &device);

} // namespace toast::sim

#endif // TOAST_SIMULATOR_DEVICE_H
