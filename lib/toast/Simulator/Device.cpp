//===- Device.cpp - Built-in devices and JSON device files ----------------===//
//
// The built-in specs are the dense peaks and capacities of the public
// datasheets (see docs/simulator.md for every number and its source). JSON
// device files are validated strictly: unknown keys, missing fields and
// non-positive numbers are errors that name the offending key, so that a typo
// never silently falls back to a default.
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/Device.h"
#include "toast/Simulator/JsonInput.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace toast::sim;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// DeviceSpec
//===----------------------------------------------------------------------===//

std::string toast::sim::getElementTypeKey(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return getElementTypeKey(complex.getElementType());
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (floatType.getWidth() == 8)
      return "f8";
    std::string str;
    llvm::raw_string_ostream os(str);
    type.print(os);
    return str; // f64, f32, tf32, bf16, f16
  }
  if (auto intType = dyn_cast<IntegerType>(type))
    return "i" + std::to_string(intType.getWidth());
  if (isa<IndexType>(type))
    return "i64";
  return "f32";
}

double DeviceSpec::getPeakFlops(StringRef key) const {
  auto it = peakFlops.find(key.str());
  if (it != peakFlops.end())
    return it->second;
  it = peakFlops.find("default");
  if (it != peakFlops.end())
    return it->second;
  it = peakFlops.find("f32");
  assert(it != peakFlops.end() && "a validated device always has f32");
  return it->second;
}

bool DeviceSpec::hasPeakFlops(StringRef key) const {
  return peakFlops.count(key.str()) || peakFlops.count("default");
}

double DeviceSpec::getPeakFlops(Type elementType) const {
  return getPeakFlops(getElementTypeKey(elementType));
}

const LinkSpec &DeviceSpec::getLink(StringRef axis) const {
  auto it = axisLinks.find(axis.str());
  return it == axisLinks.end() ? interconnect : it->second;
}

//===----------------------------------------------------------------------===//
// Built-in devices
//===----------------------------------------------------------------------===//

static constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

static DeviceSpec makeA100() {
  DeviceSpec d;
  d.name = "a100";
  d.description = "NVIDIA A100-40GB SXM4";
  d.peakFlops = {{"f64", 19.5e12}, {"f32", 19.5e12}, {"tf32", 156e12},
                 {"bf16", 312e12}, {"f16", 312e12},  {"i8", 624e12}};
  d.memoryBytes = 40 * kGiB;
  d.memoryBandwidth = 1.555e12;
  d.interconnect = {300e9, 2e-6}; // NVLink3: 600 GB/s bidirectional.
  return d;
}

static DeviceSpec makeH100() {
  DeviceSpec d;
  d.name = "h100";
  d.description = "NVIDIA H100 SXM5 80GB";
  d.peakFlops = {{"f64", 67e12},   {"f32", 67e12},  {"tf32", 495e12},
                 {"bf16", 989e12}, {"f16", 989e12}, {"f8", 1979e12},
                 {"i8", 1979e12}};
  d.memoryBytes = 80 * kGiB;
  d.memoryBandwidth = 3.35e12;
  d.interconnect = {450e9, 2e-6}; // NVLink4: 900 GB/s bidirectional.
  return d;
}

static DeviceSpec makeP100() {
  DeviceSpec d;
  d.name = "p100";
  d.description = "NVIDIA P100 SXM2 16GB";
  // No bf16 units: bf16 arithmetic runs at the f32 rate.
  d.peakFlops = {
      {"f64", 5.3e12}, {"f32", 10.6e12}, {"bf16", 10.6e12}, {"f16", 21.2e12}};
  d.memoryBytes = 16 * kGiB;
  d.memoryBandwidth = 732e9;
  d.interconnect = {80e9, 5e-6}; // NVLink1: 160 GB/s bidirectional.
  return d;
}

static DeviceSpec makeTPUv3() {
  DeviceSpec d;
  d.name = "tpuv3";
  d.description = "Google TPU v3 (one chip, two cores)";
  // XLA's default precision runs f32 matmuls on the bf16 MXUs.
  d.peakFlops = {{"bf16", 123e12}, {"f32", 123e12}};
  d.memoryBytes = 32 * kGiB;
  d.memoryBandwidth = 900e9;
  // 2-D torus with wraparound: a ring along one axis uses both directions
  // of its ICI links (1e11 B/s each way).
  d.interconnect = {200e9, 1e-6};
  return d;
}

ArrayRef<StringRef> toast::sim::getBuiltinDeviceNames() {
  static const StringRef names[] = {"a100", "h100", "p100", "tpuv3"};
  return names;
}

Expected<DeviceSpec> toast::sim::getBuiltinDevice(StringRef name) {
  std::string lower = name.lower();
  StringRef key = lower;
  if (key == "a100" || key == "a100-40gb")
    return makeA100();
  if (key == "h100" || key == "h100-sxm")
    return makeH100();
  if (key == "p100")
    return makeP100();
  if (key == "tpuv3" || key == "tpu-v3" || key == "tpu_v3")
    return makeTPUv3();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("unknown device '{0}' (known devices: {1}; or file:PATH "
                    "for a JSON device file)",
                    name, llvm::join(getBuiltinDeviceNames(), ", ")));
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {
/// Collects the first validation error with the JSON path it occurred at.
class DeviceParser {
public:
  explicit DeviceParser(StringRef origin) : origin(origin.str()) {}

  bool failed() const { return !error.empty(); }

  Error takeError() {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   origin + ": " + error);
  }

  void fail(const Twine &path, const Twine &message) {
    if (!error.empty())
      return;
    std::string where = path.str();
    error = where.empty() ? message.str() : "'" + where + "': " + message.str();
  }

  /// A number > 0 (or >= 0 when `allowZero`).
  std::optional<double> number(const llvm::json::Value &value,
                               const Twine &path, bool allowZero = false) {
    return atLeast(value, path, allowZero ? 0 : -1);
  }

  /// A rate or a size: a number >= 1 (per second, bytes). Smaller ones
  /// pass as positive numbers but overflow the step time to infinity
  /// (1e-300 FLOP/s), and every cost becomes NaN.
  std::optional<double> rate(const llvm::json::Value &value,
                             const Twine &path) {
    return atLeast(value, path, 1);
  }

  /// A finite number >= `min` (a whole number); `min` < 0 means > 0.
  std::optional<double> atLeast(const llvm::json::Value &value,
                                const Twine &path, double min) {
    std::optional<double> number = value.getAsNumber();
    if (!number) {
      fail(path, "expected a number");
      return std::nullopt;
    }
    bool ok =
        std::isfinite(*number) && (min < 0 ? *number > 0 : *number >= min);
    if (!ok) {
      fail(path, min < 0 ? std::string("expected a finite number > 0")
                         : "expected a finite number >= " +
                               std::to_string(static_cast<int64_t>(min)));
      return std::nullopt;
    }
    return number;
  }

  /// Checks that every key of `object` is in `allowed`.
  void checkKeys(const llvm::json::Object &object, ArrayRef<StringRef> allowed,
                 const Twine &path) {
    // Sorted for a deterministic first error.
    SmallVector<StringRef> keys;
    for (const auto &entry : object)
      keys.push_back(entry.first);
    llvm::sort(keys);
    for (StringRef key : keys)
      if (!llvm::is_contained(allowed, key))
        fail(path.isTriviallyEmpty() ? Twine(key) : path + "." + key,
             llvm::formatv("unknown key (expected one of: {0})",
                           llvm::join(allowed, ", ")));
  }

  void link(const llvm::json::Value &value, LinkSpec &out, bool partial,
            const Twine &path) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object) {
      fail(path, "expected an object {\"bandwidth\": B/s, \"latency\": s}");
      return;
    }
    checkKeys(*object, {"bandwidth", "latency"}, path);
    if (const llvm::json::Value *bw = object->get("bandwidth")) {
      if (auto n = rate(*bw, path + ".bandwidth"))
        out.bandwidth = *n;
    } else if (!partial) {
      fail(path, "missing key 'bandwidth'");
    }
    if (const llvm::json::Value *lat = object->get("latency")) {
      if (auto n = number(*lat, path + ".latency", /*allowZero=*/true))
        out.latency = *n;
    } else if (!partial) {
      fail(path, "missing key 'latency'");
    }
  }

private:
  std::string origin;
  std::string error;
};
} // namespace

/// A key of `peak_flops`: what getElementTypeKey returns for some type, or
/// `default`.
static bool isPeakFlopsKey(StringRef key) {
  if (llvm::is_contained({"default", "tf32", "bf16", "f16", "f32", "f64", "f8",
                          "f80", "f128"},
                         key))
    return true;
  unsigned width;
  return key.consume_front("i") && !key.getAsInteger(10, width) && width > 0;
}

Expected<DeviceSpec> toast::sim::parseDeviceJSON(StringRef text,
                                                 StringRef origin) {
  Expected<llvm::json::Value> parsed = parseJsonInput(text);
  if (!parsed)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: invalid JSON: {1}", origin,
                      llvm::toString(parsed.takeError())));
  DeviceParser parser(origin);
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    parser.fail("", "expected a JSON object at the top level");
    return parser.takeError();
  }
  parser.checkKeys(*root,
                   {"name", "description", "base", "peak_flops", "memory_bytes",
                    "memory_bandwidth", "interconnect", "axes"},
                   "");
  if (parser.failed())
    return parser.takeError();

  // A device may start from a built-in one and override some fields.
  DeviceSpec device;
  bool hasBase = false;
  if (const llvm::json::Value *base = root->get("base")) {
    std::optional<StringRef> baseName = base->getAsString();
    if (!baseName) {
      parser.fail("base", "expected a built-in device name");
      return parser.takeError();
    }
    Expected<DeviceSpec> builtin = getBuiltinDevice(*baseName);
    if (!builtin) {
      parser.fail("base", llvm::toString(builtin.takeError()));
      return parser.takeError();
    }
    device = std::move(*builtin);
    hasBase = true;
  }

  auto requireKey = [&](StringRef key) -> const llvm::json::Value * {
    const llvm::json::Value *value = root->get(key);
    if (!value && !hasBase)
      parser.fail("", llvm::formatv("missing required key '{0}'", key));
    return value;
  };

  if (const llvm::json::Value *name = root->get("name")) {
    if (std::optional<StringRef> str = name->getAsString();
        str && !str->empty())
      device.name = str->str();
    else
      parser.fail("name", "expected a non-empty string");
  } else {
    // The file is another device than its base: reports name the file.
    device.name = llvm::sys::path::stem(origin).str();
  }
  if (const llvm::json::Value *desc = root->get("description")) {
    if (std::optional<StringRef> str = desc->getAsString())
      device.description = str->str();
    else
      parser.fail("description", "expected a string");
  }

  if (const llvm::json::Value *flops = requireKey("peak_flops")) {
    const llvm::json::Object *object = flops->getAsObject();
    if (!object) {
      parser.fail("peak_flops", "expected an object of element type -> FLOP/s");
    } else {
      SmallVector<StringRef> keys;
      for (const auto &entry : *object)
        keys.push_back(entry.first);
      llvm::sort(keys);
      for (StringRef key : keys) {
        if (!isPeakFlopsKey(key)) {
          parser.fail(Twine("peak_flops.") + key,
                      "unknown element type (expected f64, f32, tf32, bf16, "
                      "f16, f8, iN or default)");
          continue;
        }
        if (auto n = parser.rate(*object->get(key), Twine("peak_flops.") + key))
          device.peakFlops[key.str()] = *n;
      }
      if (!device.peakFlops.count("f32"))
        parser.fail("peak_flops", "missing key 'f32' (the fallback rate)");
    }
  }
  if (const llvm::json::Value *bytes = requireKey("memory_bytes")) {
    // Reports and peaks count bytes in 64-bit integers; 2^53 (8 PiB) is
    // also where doubles stop counting every byte.
    if (auto n = parser.rate(*bytes, "memory_bytes"); n && *n > 0x1p53)
      parser.fail("memory_bytes", "expected at most 2^53 bytes");
    else if (n)
      device.memoryBytes = *n;
  }
  if (const llvm::json::Value *bw = requireKey("memory_bandwidth"))
    if (auto n = parser.rate(*bw, "memory_bandwidth"))
      device.memoryBandwidth = *n;
  if (const llvm::json::Value *link = requireKey("interconnect"))
    parser.link(*link, device.interconnect, /*partial=*/hasBase,
                "interconnect");
  if (const llvm::json::Value *axes = root->get("axes")) {
    const llvm::json::Object *object = axes->getAsObject();
    if (!object) {
      parser.fail("axes", "expected an object of mesh axis -> link");
    } else {
      SmallVector<StringRef> keys;
      for (const auto &entry : *object)
        keys.push_back(entry.first);
      llvm::sort(keys);
      for (StringRef key : keys) {
        // An axis entry may give only one of the two fields; the other
        // comes from `interconnect`.
        LinkSpec link = device.interconnect;
        parser.link(*object->get(key), link, /*partial=*/true,
                    Twine("axes.") + key);
        device.axisLinks[key.str()] = link;
      }
    }
  }
  if (parser.failed())
    return parser.takeError();
  return device;
}

Expected<DeviceSpec> toast::sim::loadDeviceFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(
        buffer.getError(), llvm::formatv("cannot read device file '{0}': {1}",
                                         path, buffer.getError().message()));
  return parseDeviceJSON((*buffer)->getBuffer(),
                         ("device file '" + path + "'").str());
}

Expected<DeviceSpec> toast::sim::lookupDevice(StringRef ref) {
  ref = ref.trim();
  if (ref.consume_front("file:")) {
    if (ref.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'file:' needs a path to a JSON device "
                                     "file");
    return loadDeviceFile(ref);
  }
  if (ref.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("no device given (known devices: {0}; or file:PATH)",
                      llvm::join(getBuiltinDeviceNames(), ", ")));
  return getBuiltinDevice(ref);
}

std::string toast::sim::deviceToJSON(const DeviceSpec &device) {
  auto linkJSON = [](const LinkSpec &link) {
    return llvm::json::Object{{"bandwidth", link.bandwidth},
                              {"latency", link.latency}};
  };
  llvm::json::Object flops;
  for (const auto &[key, value] : device.peakFlops)
    flops[key] = value;
  llvm::json::Object root{
      {"name", device.name},
      {"description", device.description},
      {"peak_flops", std::move(flops)},
      {"memory_bytes", device.memoryBytes},
      {"memory_bandwidth", device.memoryBandwidth},
      {"interconnect", linkJSON(device.interconnect)},
  };
  if (!device.axisLinks.empty()) {
    llvm::json::Object axes;
    for (const auto &[axis, link] : device.axisLinks)
      axes[axis] = linkJSON(link);
    root["axes"] = std::move(axes);
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return out;
}
