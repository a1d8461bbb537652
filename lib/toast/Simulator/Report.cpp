//===- Report.cpp - JSON and text reports of a simulation -----------------===//

#include "toast/Simulator/Simulator.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace toast::sim;

/// JSON has no integer type of its own: counts and byte sizes that are whole
/// numbers are written as integers so FileCheck and readers see `1024`, not
/// `1.024e+03`.
static llvm::json::Value number(double value) {
  if (std::isfinite(value) && value == std::floor(value) &&
      std::fabs(value) < 9.0e15)
    return static_cast<int64_t>(value);
  return value;
}

std::string toast::sim::toJSON(const SimulationResult &result,
                               const RelativeCost *relative, double penalty) {
  llvm::json::Object collectives, collectiveTimes, collectiveBytes;
  for (unsigned i = 0; i < kNumCollectiveKinds; ++i) {
    llvm::StringRef name = getCollectiveKindName(static_cast<CollectiveKind>(i));
    collectives[name] = result.collectives[i].count;
    collectiveTimes[name] = result.collectives[i].time;
    collectiveBytes[name] = number(result.collectives[i].bytes);
  }
  llvm::json::Object root{
      {"device", result.device},
      {"function", result.function},
      {"step_time_s", result.stepTime},
      {"compute_time_s", result.computeTime},
      {"comm_time_s", result.commTime},
      {"flops", number(result.flops)},
      {"comm_bytes", number(result.commBytes)},
      {"memory_traffic_bytes", number(result.memoryTraffic)},
      {"peak_memory_bytes", result.peakMemoryBytes},
      {"argument_bytes", result.argumentBytes},
      {"peak_memory_op", result.peakOpName},
      {"peak_memory_loc", result.peakOpLocation},
      {"peak_memory_op_index", result.peakOpIndex},
      {"device_memory_bytes", result.deviceMemoryBytes},
      {"fits_in_memory", result.fitsInMemory},
      {"memory_overflow_bytes", result.getMemoryOverflowBytes()},
      {"num_ops", result.numOps},
      {"collectives", std::move(collectives)},
      {"collective_time_s", std::move(collectiveTimes)},
      {"collective_bytes", std::move(collectiveBytes)},
  };
  if (relative)
    root["relative_cost"] = llvm::json::Object{
        {"rt", relative->runtime},
        {"mp", relative->memoryPenalty},
        {"cost", relative->total},
        {"penalty", penalty},
    };
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return out;
}

/// `1.5 ms`, `320 us`, ...
static std::string formatTime(double seconds) {
  if (seconds == 0)
    return "0 s";
  if (seconds >= 1)
    return llvm::formatv("{0:F3} s", seconds).str();
  if (seconds >= 1e-3)
    return llvm::formatv("{0:F3} ms", seconds * 1e3).str();
  if (seconds >= 1e-6)
    return llvm::formatv("{0:F3} us", seconds * 1e6).str();
  return llvm::formatv("{0:F3} ns", seconds * 1e9).str();
}

/// `12.0 MiB (12582912 B)`.
static std::string formatBytes(double bytes) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = bytes;
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    return llvm::formatv("{0} B", static_cast<int64_t>(bytes)).str();
  return llvm::formatv("{0:F2} {1} ({2} B)", value, units[unit],
                       static_cast<int64_t>(bytes))
      .str();
}

void toast::sim::printSummary(llvm::raw_ostream &os,
                              const SimulationResult &result,
                              const RelativeCost *relative) {
  os << "=== partir-simulate: @" << result.function << " on "
     << result.device << " (" << result.numOps << " ops) ===\n";
  os << "  step time      : " << formatTime(result.stepTime) << " (compute "
     << formatTime(result.computeTime) << ", communication "
     << formatTime(result.commTime) << ")\n";
  os << "  flops          : " << llvm::formatv("{0:E3}", result.flops) << "\n";
  os << "  comm bytes     : " << formatBytes(result.commBytes) << "\n";
  os << "  peak memory    : " << formatBytes(result.peakMemoryBytes) << " of "
     << formatBytes(result.deviceMemoryBytes) << " ("
     << llvm::formatv("{0:F1}",
                      result.deviceMemoryBytes
                          ? 100.0 * result.peakMemoryBytes /
                                result.deviceMemoryBytes
                          : 0.0)
     << "%)";
  if (result.peakOpIndex >= 0)
    os << " at op #" << result.peakOpIndex << " " << result.peakOpName << " "
       << result.peakOpLocation;
  else
    os << " at function entry";
  os << "\n";
  if (!result.fitsInMemory)
    os << "  WARNING        : peak memory exceeds device memory by "
       << formatBytes(result.getMemoryOverflowBytes()) << "\n";
  os << "  collectives    :";
  for (unsigned i = 0; i < kNumCollectiveKinds; ++i)
    os << " " << getCollectiveKindName(static_cast<CollectiveKind>(i)) << "="
       << result.collectives[i].count;
  os << "\n";
  if (relative)
    os << "  relative cost  : C = RT + MP = "
       << llvm::formatv("{0:F4} + {1:F4} = {2:F4}", relative->runtime,
                        relative->memoryPenalty, relative->total)
       << "\n";
}
