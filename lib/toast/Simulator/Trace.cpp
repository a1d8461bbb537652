//===- Trace.cpp - The simulated step as a Chrome trace and a CSV ---------===//
//
// writeChromeTrace writes the Trace Event Format that Perfetto
// (ui.perfetto.dev) and chrome://tracing open: one process, a `compute`
// and a `collectives` thread of complete ("X") events, one per op that
// takes time, loops and conditionals as slices enclosing their regions'
// ops, counters ("C") of live memory and of the memory floor, and an
// instant event ("i") at the peak. A loop body is not unrolled: each of its
// ops is one slice lasting its repeat count times one iteration, as the
// simulator prices it, so the slices of a track add up to the report's
// compute (or communication) time. writeMemoryCSV writes the live bytes op
// by op. docs/simulator.md ("Timeline") describes both.
//
//===----------------------------------------------------------------------===//

#include "toast/Interfaces/ValueNames.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

using namespace toast::sim;

namespace {

constexpr int64_t kPid = 1;
constexpr int64_t kComputeTid = 1;
constexpr int64_t kCollectivesTid = 2;

/// Microseconds (the format's unit) with 15 significant digits, so that
/// sums over slices match the report's seconds.
void writeMicroseconds(llvm::json::OStream &json, double seconds) {
  double us = seconds * 1e6;
  if (!std::isfinite(us)) {
    json.value(nullptr);
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.15g", us);
  json.rawValue(text);
}

std::string locationOf(mlir::Operation *op) {
  std::string loc;
  llvm::raw_string_ostream os(loc);
  op->getLoc().print(os);
  return loc;
}

/// Seconds with the report's 12 significant digits.
void writeSeconds(llvm::json::OStream &json, double seconds) {
  if (!std::isfinite(seconds)) {
    json.value(nullptr);
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.12g", seconds);
  json.rawValue(text);
}

/// A whole number as an integer, anything else as a double.
void writeCount(llvm::json::OStream &json, double value) {
  if (std::isfinite(value) && value == std::floor(value) &&
      std::fabs(value) < 9.0e15)
    json.value(static_cast<int64_t>(value));
  else
    json.value(value);
}

} // namespace

void toast::sim::writeChromeTrace(llvm::raw_ostream &os,
                                  const SimulationResult &result,
                                  const Timeline &timeline) {
  const std::vector<TimelineEvent> &events = timeline.events;
  auto tidOf = [](const TimelineEvent &e) {
    return e.collective ? kCollectivesTid : kComputeTid;
  };
  // One event per line, so that the file reads (and diffs) line by line.
  bool firstEvent = true;
  auto event = [&](llvm::function_ref<void(llvm::json::OStream &)> body) {
    os << (firstEvent ? "\n" : ",\n");
    firstEvent = false;
    llvm::json::OStream json(os, /*IndentSize=*/0);
    json.object([&] { body(json); });
  };
  auto time = [](llvm::json::OStream &json, llvm::StringRef key,
                 double seconds) {
    json.attributeBegin(key);
    writeMicroseconds(json, seconds);
    json.attributeEnd();
  };
  auto count = [](llvm::json::OStream &json, llvm::StringRef key,
                  double value) {
    json.attributeBegin(key);
    writeCount(json, value);
    json.attributeEnd();
  };
  auto metadata = [&](llvm::StringRef name, int64_t tid,
                      llvm::function_ref<void(llvm::json::OStream &)> args) {
    event([&](llvm::json::OStream &json) {
      json.attribute("name", name);
      json.attribute("ph", "M");
      json.attribute("pid", kPid);
      json.attribute("tid", tid);
      json.attributeObject("args", [&] { args(json); });
    });
  };

  os << "{\"traceEvents\":[";
  metadata("process_name", 0, [&](llvm::json::OStream &json) {
    json.attribute("name", "partir-simulate: @" + result.function + " on " +
                               result.device);
  });
  metadata("thread_name", kComputeTid, [&](llvm::json::OStream &json) {
    json.attribute("name", "compute");
  });
  metadata("thread_name", kCollectivesTid, [&](llvm::json::OStream &json) {
    json.attribute("name", timeline.overlap
                               ? "collectives (own stream, overlapped)"
                               : "collectives (same stream as compute)");
  });
  metadata("thread_sort_index", kComputeTid,
           [&](llvm::json::OStream &json) { json.attribute("sort_index", 1); });
  metadata("thread_sort_index", kCollectivesTid,
           [&](llvm::json::OStream &json) { json.attribute("sort_index", 2); });

  // Loops and conditionals: a slice around their regions' slices, on each
  // track where these take time. Each stream runs its ops in the simulated
  // order, so nothing else on that track falls inside.
  // Outer ops first (a loop is recorded when it ends, after the loops it
  // contains), so that a viewer reading events of equal start in file
  // order nests them.
  std::vector<TimelineRegionOp> regions = timeline.regionOps;
  llvm::stable_sort(regions,
                    [](const TimelineRegionOp &a, const TimelineRegionOp &b) {
                      return std::make_pair(a.firstIndex, -a.lastIndex) <
                             std::make_pair(b.firstIndex, -b.lastIndex);
                    });
  for (const TimelineRegionOp &region : regions) {
    for (int64_t tid : {kComputeTid, kCollectivesTid}) {
      double first = 0, last = 0;
      bool any = false;
      int64_t end = std::min<int64_t>(region.lastIndex + 1,
                                      static_cast<int64_t>(events.size()));
      for (int64_t i = region.firstIndex; i < end; ++i) {
        const TimelineEvent &e = events[i];
        if (tidOf(e) != tid || !(e.duration > 0))
          continue;
        first = any ? std::min(first, e.start) : e.start;
        last =
            any ? std::max(last, e.start + e.duration) : e.start + e.duration;
        any = true;
      }
      if (!any)
        continue;
      event([&](llvm::json::OStream &json) {
        json.attribute("name", region.op->getName().getStringRef());
        json.attribute("cat", "region");
        json.attribute("ph", "X");
        time(json, "ts", first);
        time(json, "dur", last - first);
        json.attribute("pid", kPid);
        json.attribute("tid", tid);
        json.attributeObject("args", [&] {
          json.attribute("op_index", region.lastIndex);
          json.attribute("first_op_index", region.firstIndex);
          json.attribute("loc", locationOf(region.op));
          count(json, "iterations", region.iterations);
        });
      });
    }
  }

  // One slice per op that takes time.
  for (const TimelineEvent &e : events) {
    if (!(e.duration > 0))
      continue;
    event([&](llvm::json::OStream &json) {
      json.attribute("name", e.op->getName().getStringRef());
      json.attribute("cat", e.collective ? "collective" : "compute");
      json.attribute("ph", "X");
      time(json, "ts", e.start);
      time(json, "dur", e.duration);
      json.attribute("pid", kPid);
      json.attribute("tid", tidOf(e));
      json.attributeObject("args", [&] {
        json.attribute("op_index", e.index);
        json.attribute("loc", locationOf(e.op));
        if (std::string name = toast::getOpDisplayName(e.op); !name.empty())
          json.attribute("value", name);
        count(json, "repeat", e.repeat);
        if (e.collective) {
          json.attribute("kind", getCollectiveKindName(e.kind));
          count(json, "bytes_sent", e.commBytes);
        } else if (e.flops > 0) {
          count(json, "flops", e.flops);
        }
        json.attribute("live_bytes", e.liveBytes);
      });
    });
  }

  // Live memory: at each start time, the most live bytes among the ops
  // that start then (ops that take no time share the start of the next
  // one), held until the next start time; the last op's at the end.
  auto counter = [&](llvm::StringRef name, double seconds, int64_t bytes) {
    event([&](llvm::json::OStream &json) {
      json.attribute("name", name);
      json.attribute("ph", "C");
      time(json, "ts", seconds);
      json.attribute("pid", kPid);
      json.attributeObject("args", [&] { json.attribute("bytes", bytes); });
    });
  };
  std::vector<size_t> order(events.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return events[a].start < events[b].start;
  });
  for (size_t k = 0; k < order.size();) {
    double start = events[order[k]].start;
    int64_t bytes = events[order[k]].liveBytes;
    for (++k; k < order.size() && events[order[k]].start == start; ++k)
      bytes = std::max(bytes, events[order[k]].liveBytes);
    counter("live memory", start, bytes);
  }
  if (!events.empty() && result.stepTime > events[order.back()].start)
    counter("live memory", result.stepTime, events[order.back()].liveBytes);
  counter("memory floor", 0, result.memoryFloorBytes);
  if (result.stepTime > 0)
    counter("memory floor", result.stepTime, result.memoryFloorBytes);

  // The peak, on the track of the op where it is first reached.
  if (result.peakOpIndex >= 0 &&
      result.peakOpIndex < static_cast<int64_t>(events.size())) {
    const TimelineEvent &e = events[result.peakOpIndex];
    event([&](llvm::json::OStream &json) {
      json.attribute("name", "peak memory");
      json.attribute("cat", "memory");
      json.attribute("ph", "i");
      json.attribute("s", "t");
      time(json, "ts", e.start);
      json.attribute("pid", kPid);
      json.attribute("tid", tidOf(e));
      json.attributeObject("args", [&] {
        json.attribute("bytes", result.peakMemoryBytes);
        json.attribute("op", result.peakOpName);
        json.attribute("loc", result.peakOpLocation);
        if (!result.peakOpUserName.empty())
          json.attribute("value", result.peakOpUserName);
        json.attribute("op_index", result.peakOpIndex);
      });
    });
  }
  os << "\n],\n\"otherData\":";
  llvm::json::OStream json(os, /*IndentSize=*/0);
  json.object([&] {
    json.attribute("tool", "partir-simulate");
    json.attribute("device", result.device);
    json.attribute("function", result.function);
    json.attribute("time_unit", "us");
    json.attributeBegin("step_time_s");
    writeSeconds(json, result.stepTime);
    json.attributeEnd();
    json.attributeBegin("compute_time_s");
    writeSeconds(json, result.computeTime);
    json.attributeEnd();
    json.attributeBegin("comm_time_s");
    writeSeconds(json, result.commTime);
    json.attributeEnd();
    json.attribute("peak_memory_bytes", result.peakMemoryBytes);
    json.attribute("memory_floor_bytes", result.memoryFloorBytes);
    json.attribute("num_ops", result.numOps);
    json.attribute("overlap", timeline.overlap);
  });
  os << "}\n";
}

void toast::sim::writeMemoryCSV(llvm::raw_ostream &os,
                                const SimulationResult &result,
                                const Timeline &timeline) {
  (void)result;
  os << "time_s,live_bytes,op_index,op\n";
  for (const TimelineEvent &e : timeline.events)
    os << llvm::format("%.12g", e.start) << "," << e.liveBytes << "," << e.index
       << "," << e.op->getName().getStringRef() << "\n";
}
