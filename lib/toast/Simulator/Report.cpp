//===- Report.cpp - JSON and text reports of a simulation -----------------===//

#include "toast/Simulator/Simulator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace toast::sim;

/// Writes a number the way a reader expects it: whole numbers (counts,
/// bytes, FLOPs) as integers, other values with 12 significant digits so
/// that hand-computed expectations such as `3.048e-06` match exactly.
static void writeNumber(llvm::json::OStream &json, double value) {
  if (!std::isfinite(value)) {
    json.value(nullptr);
    return;
  }
  if (value == std::floor(value) && std::fabs(value) < 9.0e15) {
    json.value(static_cast<int64_t>(value));
    return;
  }
  json.rawValue(llvm::formatv("{0}", llvm::format("%.12g", value)).str());
}

std::string toast::sim::toJSON(const SimulationResult &result,
                               const RelativeCost *relative, double penalty) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  auto number = [&](llvm::StringRef key, double value) {
    json.attributeBegin(key);
    writeNumber(json, value);
    json.attributeEnd();
  };
  auto perKind = [&](llvm::StringRef key, auto field) {
    json.attributeObject(key, [&] {
      for (unsigned i = 0; i < kNumCollectiveKinds; ++i)
        number(getCollectiveKindName(static_cast<CollectiveKind>(i)),
               field(result.collectives[i]));
    });
  };
  json.object([&] {
    // The keys the issue requires come first.
    number("step_time_s", result.stepTime);
    number("compute_time_s", result.computeTime);
    number("comm_time_s", result.commTime);
    number("flops", result.flops);
    number("comm_bytes", result.commBytes);
    number("peak_memory_bytes", static_cast<double>(result.peakMemoryBytes));
    number("memory_floor_bytes", static_cast<double>(result.memoryFloorBytes));
    perKind("collectives",
            [](const CollectiveStats &s) { return double(s.count); });
    json.attribute("device", result.device);
    json.attribute("function", result.function);
    json.attribute("num_ops", result.numOps);
    json.attribute("uncounted_loops", result.uncountedLoops);
    json.attribute("at_most_loops", result.atMostLoops);
    number("memory_traffic_bytes", result.memoryTraffic);
    json.attribute("argument_bytes", result.argumentBytes);
    json.attribute("peak_memory_op", result.peakOpName);
    json.attribute("peak_memory_loc", result.peakOpLocation);
    json.attribute("peak_memory_op_index", result.peakOpIndex);
    json.attribute("device_memory_bytes", result.deviceMemoryBytes);
    json.attribute("fits_in_memory", result.fitsInMemory);
    json.attribute("memory_overflow_bytes", result.getMemoryOverflowBytes());
    json.attribute("memory_floor_argument_bytes",
                   result.memoryFloorArgumentBytes);
    json.attribute("memory_floor_op", result.floorOpName);
    json.attribute("memory_floor_loc", result.floorOpLocation);
    json.attribute("memory_floor_op_index", result.floorOpIndex);
    perKind("collective_time_s",
            [](const CollectiveStats &s) { return s.time; });
    perKind("collective_bytes",
            [](const CollectiveStats &s) { return s.bytes; });
    json.attribute("peak_memory_name", result.peakOpUserName);
    json.attribute("memory_floor_name", result.floorOpUserName);
    if (relative)
      json.attributeObject("relative_cost", [&] {
        number("rt", relative->runtime);
        number("mp", relative->memoryPenalty);
        number("cost", relative->total);
        number("penalty", penalty);
      });
  });
  os << "\n";
  return out;
}

/// ` (params['w1'])` when the op has a name in the user's terms.
static std::string userName(const std::string &name) {
  return name.empty() ? "" : " (" + name + ")";
}

std::string toast::sim::formatTime(double seconds) {
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

std::string toast::sim::formatBytes(double bytes, bool exact) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = bytes;
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    return llvm::formatv("{0} B", static_cast<int64_t>(bytes)).str();
  if (!exact)
    return llvm::formatv("{0:F2} {1}", value, units[unit]).str();
  return llvm::formatv("{0:F2} {1} ({2} B)", value, units[unit],
                       static_cast<int64_t>(bytes))
      .str();
}

void toast::sim::printSummary(llvm::raw_ostream &os,
                              const SimulationResult &result,
                              const RelativeCost *relative) {
  os << "=== partir-simulate: @" << result.function << " on " << result.device
     << " (" << result.numOps << " ops) ===\n";
  os << "  step time      : " << formatTime(result.stepTime) << " (compute "
     << formatTime(result.computeTime) << ", communication "
     << formatTime(result.commTime) << ")\n";
  os << "  flops          : " << llvm::formatv("{0:E3}", result.flops) << "\n";
  os << "  comm bytes     : " << formatBytes(result.commBytes) << "\n";
  os << "  peak memory    : " << formatBytes(result.peakMemoryBytes) << " of "
     << formatBytes(result.deviceMemoryBytes) << " ("
     << llvm::formatv("{0:F1}", result.deviceMemoryBytes
                                    ? 100.0 * result.peakMemoryBytes /
                                          result.deviceMemoryBytes
                                    : 0.0)
     << "%)";
  if (result.peakOpIndex >= 0)
    os << " at op #" << result.peakOpIndex << " " << result.peakOpName << " "
       << result.peakOpLocation << userName(result.peakOpUserName);
  else
    os << " at function entry";
  os << "\n";
  os << "  memory floor   : " << formatBytes(result.memoryFloorBytes);
  if (result.memoryFloorBytes > 0)
    os << llvm::formatv(" (peak / floor = {0:F2})",
                        static_cast<double>(result.peakMemoryBytes) /
                            result.memoryFloorBytes);
  os << ", arguments " << formatBytes(result.memoryFloorArgumentBytes);
  if (result.floorOpIndex >= 0)
    os << ", after op #" << result.floorOpIndex << " " << result.floorOpName
       << " " << result.floorOpLocation << userName(result.floorOpUserName);
  else
    os << ", at function entry";
  os << "\n";
  if (!result.fitsInMemory)
    os << "  WARNING        : peak memory exceeds device memory by "
       << formatBytes(result.getMemoryOverflowBytes()) << "\n";
  os << "  collectives    :";
  for (unsigned i = 0; i < kNumCollectiveKinds; ++i)
    os << " " << getCollectiveKindName(static_cast<CollectiveKind>(i)) << "="
       << result.collectives[i].count;
  os << "\n";
  if (result.uncountedLoops > 0)
    os << "  note           : " << result.uncountedLoops
       << " while loop(s) without a constant trip count priced as one "
          "iteration\n";
  if (result.atMostLoops > 0)
    os << "  note           : " << result.atMostLoops
       << " while loop(s) priced at their maximum trip count (they may exit "
          "earlier)\n";
  if (relative)
    os << "  relative cost  : C = RT + MP = "
       << llvm::formatv("{0:F4} + {1:F4} = {2:F4}", relative->runtime,
                        relative->memoryPenalty, relative->total)
       << "\n";
}
