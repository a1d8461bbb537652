//===- HloSharding.cpp - XLA HloSharding strings and mesh axes ------------===//
//
// See HloSharding.h. The central fact: an iota tile assignment
// `devices=[T...]<=[R...]T(perm)` is the array iota(N) reshaped to R,
// transposed by perm and reshaped to T. When the transposed shape and T
// have a common refinement, every factor of that refinement is one axis of
// the device space (a digit of the device id in mixed radix) that splits
// one tensor dimension (or replicates).
//
//===----------------------------------------------------------------------===//

#include "toast/Export/HloSharding.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace llvm;

namespace toast::xla {

static int64_t product(ArrayRef<int64_t> values) {
  int64_t n = 1;
  for (int64_t v : values)
    n *= v;
  return n;
}

static bool isIdentity(ArrayRef<int64_t> perm) {
  for (auto [i, p] : enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

static bool isPermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  return isIdentity(sorted);
}

int64_t HloSharding::getNumDevices() const { return product(tileDims); }

int64_t AxisDecomposition::getNumDevices() const { return product(axisSizes); }

SmallVector<int64_t> HloSharding::getDeviceList() const {
  if (!isIota)
    return devices;
  int64_t n = getNumDevices();
  SmallVector<int64_t> perm(iotaPerm);
  if (perm.empty()) {
    perm.resize(iotaReshape.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  // Strides of the original (reshaped) iota.
  SmallVector<int64_t> strides(iotaReshape.size(), 1);
  for (int64_t i = static_cast<int64_t>(iotaReshape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * iotaReshape[i + 1];
  SmallVector<int64_t> list;
  list.reserve(n);
  for (int64_t linear = 0; linear < n; ++linear) {
    // Coordinates in the transposed shape, minor dimension last.
    int64_t rest = linear, device = 0;
    for (int64_t i = static_cast<int64_t>(perm.size()) - 1; i >= 0; --i) {
      int64_t size = iotaReshape[perm[i]];
      device += (rest % size) * strides[perm[i]];
      rest /= size;
    }
    list.push_back(device);
  }
  return list;
}

//===----------------------------------------------------------------------===//
// Parsing and printing
//===----------------------------------------------------------------------===//

namespace {
/// A cursor over the sharding text.
class Cursor {
public:
  explicit Cursor(StringRef text) : text(text) {}

  void skipSpace() { text = text.ltrim(); }
  StringRef remaining() const { return text; }
  bool consume(StringRef token) {
    skipSpace();
    return text.consume_front(token);
  }
  bool atEnd() {
    skipSpace();
    return text.empty();
  }
  bool peek(char c) {
    skipSpace();
    return !text.empty() && text.front() == c;
  }
  bool parseInt(int64_t &value) {
    skipSpace();
    size_t len = 0;
    while (len < text.size() && isDigit(text[len]))
      ++len;
    if (len == 0 || text.take_front(len).getAsInteger(10, value))
      return false;
    text = text.drop_front(len);
    return true;
  }
  /// `open int (, int)* close`; `open close` is allowed.
  bool parseIntList(char open, char close, SmallVectorImpl<int64_t> &values) {
    if (!consume(StringRef(&open, 1)))
      return false;
    if (consume(StringRef(&close, 1)))
      return true;
    do {
      if (!parseInt(values.emplace_back()))
        return false;
    } while (consume(","));
    return consume(StringRef(&close, 1));
  }
  /// Skips a balanced `{...}` (used for metadata).
  bool skipBraces() {
    if (!consume("{"))
      return false;
    int depth = 1;
    bool inString = false;
    while (!text.empty() && depth > 0) {
      char c = text.front();
      text = text.drop_front();
      if (inString) {
        if (c == '\\' && !text.empty())
          text = text.drop_front();
        else if (c == '"')
          inString = false;
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    return depth == 0;
  }
  StringRef rest() const { return text; }

private:
  StringRef text;
};
} // namespace

/// Checks the tile dims and device list of a tiled sharding.
static LogicalResult checkTiled(const HloSharding &s, std::string &error) {
  if (s.tileDims.empty())
    return error = "'devices=[...]' needs at least one dimension", failure();
  for (int64_t d : s.tileDims)
    if (d < 1)
      return error = "tile dimensions must be positive", failure();
  if (s.subgroups.size() >= s.tileDims.size())
    return error = "the subgroups (last_tile_dim_replicate, last_tile_dims) "
                   "need a tile dimension each, after the tensor's",
           failure();
  int64_t n = s.getNumDevices();
  if (s.isIota) {
    if (s.iotaReshape.empty() || product(s.iotaReshape) != n)
      return error = ("iota '<=[...]' must have " + Twine(n) +
                      " devices, the product of the tile dimensions")
                         .str(),
             failure();
    if (!s.iotaPerm.empty() && (s.iotaPerm.size() != s.iotaReshape.size() ||
                                !isPermutation(s.iotaPerm)))
      return error = "'T(...)' must be a permutation of the iota dimensions",
             failure();
    return success();
  }
  if (static_cast<int64_t>(s.devices.size()) != n)
    return error = ("expected " + Twine(n) + " device ids, got " +
                    Twine(s.devices.size()))
                       .str(),
           failure();
  std::set<int64_t> seen;
  for (int64_t id : s.devices)
    if (id < 0 || id >= n || !seen.insert(id).second)
      return error = ("device ids must be a permutation of 0.." + Twine(n - 1))
                         .str(),
             failure();
  return success();
}

LogicalResult splitHloTupleSharding(StringRef text,
                                    SmallVectorImpl<StringRef> &elements,
                                    std::string &error) {
  Cursor c(text);
  if (!c.consume("{") || !c.peek('{'))
    return error = "expected a tuple sharding '{{...}, ...}'", failure();
  do {
    c.skipSpace();
    StringRef rest = c.remaining();
    if (!c.skipBraces())
      return error = "malformed tuple sharding", failure();
    elements.push_back(rest.drop_back(c.remaining().size()));
  } while (c.consume(","));
  if (!c.consume("}") || !c.atEnd())
    return error = "unexpected text after the tuple sharding", failure();
  return success();
}

/// Parses `={manual, replicated}` (each kind at most once).
static LogicalResult
parseSubgroups(Cursor &c, SmallVectorImpl<HloSharding::Subgroup> &subgroups,
               std::string &error) {
  if (!c.consume("=") || !c.consume("{"))
    return error = "malformed 'last_tile_dims={...}'", failure();
  do {
    HloSharding::Subgroup kind;
    if (c.consume("manual"))
      kind = HloSharding::Subgroup::Manual;
    else if (c.consume("replicated"))
      kind = HloSharding::Subgroup::Replicated;
    else
      return error = "unsupported subgroup in 'last_tile_dims' (expected "
                     "manual or replicated)",
             failure();
    if (llvm::is_contained(subgroups, kind))
      return error = "a subgroup kind appears twice in 'last_tile_dims'",
             failure();
    subgroups.push_back(kind);
  } while (c.consume(","));
  if (!c.consume("}"))
    return error = "malformed 'last_tile_dims={...}'", failure();
  return success();
}

FailureOr<HloSharding> parseHloSharding(StringRef text, std::string &error) {
  Cursor c(text);
  HloSharding s;
  auto fail = [&](const Twine &message) -> FailureOr<HloSharding> {
    error = message.str();
    return failure();
  };
  if (!c.consume("{"))
    return fail("expected '{'");
  if (c.peek('{')) {
    SmallVector<StringRef> elements;
    if (failed(splitHloTupleSharding(text, elements, error)))
      return failure();
    s.kind = HloSharding::Kind::Unsupported;
    s.unsupported = "tuple shardings";
    return s;
  }
  if (c.consume("replicated")) {
    s.kind = HloSharding::Kind::Replicated;
  } else if (c.consume("manual")) {
    s.kind = HloSharding::Kind::Manual;
  } else if (c.consume("maximal")) {
    s.kind = HloSharding::Kind::Maximal;
    if (!c.consume("device") || !c.consume("=") || !c.parseInt(s.maximalDevice))
      return fail("expected 'device=N' after 'maximal'");
  } else if (c.consume("devices")) {
    s.kind = HloSharding::Kind::Tiled;
    if (!c.consume("=") || !c.parseIntList('[', ']', s.tileDims))
      return fail("expected 'devices=[d0,d1,...]'");
    if (c.consume("<=")) {
      if (!c.parseIntList('[', ']', s.iotaReshape))
        return fail("expected '<=[n,...]' after the tile dimensions");
      if (c.consume("T") && !c.parseIntList('(', ')', s.iotaPerm))
        return fail("expected 'T(p0,p1,...)'");
    } else {
      s.isIota = false;
      do {
        if (!c.parseInt(s.devices.emplace_back()))
          return fail("expected '<=[...]' or a list of device ids after the "
                      "tile dimensions");
      } while (c.consume(","));
    }
  } else {
    return fail("unsupported sharding '" + text +
                "' (expected replicated, manual, maximal or devices=)");
  }
  // Trailing options.
  while (!c.peek('}')) {
    if (c.consume("last_tile_dim_replicate")) {
      if (!s.subgroups.empty())
        return fail("more than one last_tile_dim_replicate/last_tile_dims");
      s.subgroups.push_back(HloSharding::Subgroup::Replicated);
    } else if (c.consume("last_tile_dims")) {
      if (!s.subgroups.empty())
        return fail("more than one last_tile_dim_replicate/last_tile_dims");
      if (failed(parseSubgroups(c, s.subgroups, error)))
        return failure();
    } else if (c.consume("metadata")) {
      if (!c.consume("=") || !c.skipBraces())
        return fail("malformed 'metadata={...}'");
    } else {
      return fail("unexpected '" + c.rest() + "'");
    }
  }
  if (!c.consume("}") || !c.atEnd())
    return fail("unexpected text after the closing '}'");
  if (s.kind == HloSharding::Kind::Tiled && failed(checkTiled(s, error)))
    return failure();
  if (!s.unsupported.empty())
    s.kind = HloSharding::Kind::Unsupported;
  return s;
}

std::string printHloSharding(const HloSharding &s) {
  std::string out;
  raw_string_ostream os(out);
  switch (s.kind) {
  case HloSharding::Kind::Replicated:
    return "{replicated}";
  case HloSharding::Kind::Manual:
    return "{manual}";
  case HloSharding::Kind::Unsupported:
    return "{unknown}";
  case HloSharding::Kind::Maximal:
    os << "{maximal device=" << s.maximalDevice << "}";
    return out;
  case HloSharding::Kind::Tiled:
    break;
  }
  os << "{devices=[";
  interleave(s.tileDims, os, ",");
  os << "]";
  if (s.isIota) {
    os << "<=[";
    interleave(s.iotaReshape, os, ",");
    os << "]";
    if (!s.iotaPerm.empty() && !isIdentity(s.iotaPerm)) {
      os << "T(";
      interleave(s.iotaPerm, os, ",");
      os << ")";
    }
  } else {
    interleave(s.devices, os, ",");
  }
  // XLA prints a replicated subgroup alone as last_tile_dim_replicate.
  if (s.subgroups.size() == 1 &&
      s.subgroups.front() == HloSharding::Subgroup::Replicated) {
    os << " last_tile_dim_replicate";
  } else if (!s.subgroups.empty()) {
    os << " last_tile_dims={";
    interleaveComma(s.subgroups, os, [&](HloSharding::Subgroup kind) {
      os << (kind == HloSharding::Subgroup::Manual ? "manual" : "replicated");
    });
    os << "}";
  }
  os << "}";
  return out;
}

//===----------------------------------------------------------------------===//
// Mesh axes -> HloSharding
//===----------------------------------------------------------------------===//

FailureOr<HloSharding> buildHloSharding(ArrayRef<MeshAxis> mesh,
                                        const DimAxisNames &dims,
                                        std::string &error,
                                        ArrayRef<std::string> manual) {
  auto indexOf = [&](StringRef name) -> int64_t {
    for (auto [i, axis] : enumerate(mesh))
      if (axis.name == name)
        return i;
    return -1;
  };
  HloSharding s;
  SmallVector<bool> used(mesh.size(), false);
  // Mesh axes (size > 1) in tile-assignment order: dimensions, then copies.
  SmallVector<int64_t> order;
  for (const auto &axes : dims) {
    int64_t tiles = 1;
    for (const std::string &name : axes) {
      int64_t i = indexOf(name);
      if (i < 0)
        return error = "unknown mesh axis \"" + name + "\"", failure();
      if (used[i])
        return error = "mesh axis \"" + name + "\" is used twice", failure();
      used[i] = true;
      tiles *= mesh[i].size;
      if (mesh[i].size > 1)
        order.push_back(i);
    }
    s.tileDims.push_back(tiles);
  }
  int64_t manualDevices = 1;
  for (const std::string &name : manual) {
    int64_t i = indexOf(name);
    if (i < 0 || used[i])
      return error = "manual axis \"" + name +
                     "\" is unknown or shards the "
                     "value",
             failure();
    used[i] = true;
    if (mesh[i].size > 1)
      order.push_back(i);
    manualDevices *= mesh[i].size;
  }
  if (order.empty()) {
    s = HloSharding();
    s.kind = HloSharding::Kind::Replicated;
    return s;
  }
  s.kind = HloSharding::Kind::Tiled;
  if (manualDevices > 1) {
    s.tileDims.push_back(manualDevices);
    s.subgroups.push_back(HloSharding::Subgroup::Manual);
  }
  int64_t copies = 1;
  for (auto [i, axis] : enumerate(mesh))
    if (!used[i] && axis.size > 1) {
      order.push_back(i);
      copies *= axis.size;
    }
  if (copies > 1) {
    s.tileDims.push_back(copies);
    s.subgroups.push_back(HloSharding::Subgroup::Replicated);
  }
  // Manual on every device and split on none: GSPMD writes `{manual}`.
  if (manualDevices > 1 && product(s.tileDims) == manualDevices) {
    s = HloSharding();
    s.kind = HloSharding::Kind::Manual;
    return s;
  }
  // Merge runs of axes that are adjacent both in the mesh and in `order`
  // (XLA's canonical iota); size-1 axes are already gone.
  SmallVector<int64_t> kept; // mesh indices of axes with size > 1
  for (auto [i, axis] : enumerate(mesh))
    if (axis.size > 1)
      kept.push_back(i);
  auto rank = [&](int64_t meshIndex) {
    return std::find(kept.begin(), kept.end(), meshIndex) - kept.begin();
  };
  SmallVector<SmallVector<int64_t>> runs; // compressed indices per run
  for (int64_t meshIndex : order) {
    int64_t r = rank(meshIndex);
    if (!runs.empty() && runs.back().back() + 1 == r)
      runs.back().push_back(r);
    else
      runs.push_back({r});
  }
  SmallVector<unsigned> byStart(runs.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::sort(byStart, [&](unsigned a, unsigned b) {
    return runs[a].front() < runs[b].front();
  });
  SmallVector<int64_t> position(runs.size());
  for (auto [pos, run] : enumerate(byStart)) {
    position[run] = pos;
    int64_t size = 1;
    for (int64_t r : runs[run])
      size *= mesh[kept[r]].size;
    s.iotaReshape.push_back(size);
  }
  for (unsigned run = 0; run < runs.size(); ++run)
    s.iotaPerm.push_back(position[run]);
  if (isIdentity(s.iotaPerm)) {
    s.iotaReshape = {product(s.iotaReshape)};
    s.iotaPerm.clear();
  }
  return s;
}

//===----------------------------------------------------------------------===//
// HloSharding -> device-space axes
//===----------------------------------------------------------------------===//

/// Finds an iota form of an explicit device list that orders whole tile
/// dimensions; fills iotaReshape/iotaPerm on success.
static bool explicitToIota(HloSharding &s) {
  SmallVector<int64_t> nonTrivial; // tile dims of size > 1
  for (auto [d, size] : enumerate(s.tileDims))
    if (size > 1)
      nonTrivial.push_back(d);
  if (nonTrivial.size() > 7)
    return false;
  SmallVector<int64_t> order(nonTrivial);
  do {
    HloSharding candidate = s;
    candidate.isIota = true;
    candidate.iotaReshape.clear();
    candidate.iotaPerm.clear();
    for (int64_t d : order)
      candidate.iotaReshape.push_back(s.tileDims[d]);
    // Transposed dim i is tile dim nonTrivial[i], found at `order` index k.
    for (int64_t d : nonTrivial)
      candidate.iotaPerm.push_back(std::find(order.begin(), order.end(), d) -
                                   order.begin());
    if (candidate.iotaReshape.empty())
      candidate.iotaReshape.push_back(1);
    if (candidate.getDeviceList() == s.devices) {
      s = candidate;
      return true;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return false;
}

FailureOr<AxisDecomposition> decomposeHloSharding(const HloSharding &input,
                                                  std::string &error) {
  if (input.kind != HloSharding::Kind::Tiled)
    return error = "only tiled shardings have axes", failure();
  HloSharding s = input;
  if (!s.isIota && !explicitToIota(s))
    return error = "the device list is not a product of mesh axes", failure();
  // Drop size-1 iota dimensions.
  SmallVector<int64_t> perm(s.iotaPerm);
  if (perm.empty()) {
    perm.resize(s.iotaReshape.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  SmallVector<int64_t> newIndex(s.iotaReshape.size(), -1);
  SmallVector<int64_t> reshape;
  for (auto [i, size] : enumerate(s.iotaReshape))
    if (size > 1) {
      newIndex[i] = reshape.size();
      reshape.push_back(size);
    }
  SmallVector<int64_t> transposedFrom; // original (compressed) index per dim
  for (int64_t p : perm)
    if (newIndex[p] >= 0)
      transposedFrom.push_back(newIndex[p]);
  SmallVector<std::pair<int64_t, int64_t>> tiles; // (tile dim, size) > 1
  for (auto [d, size] : enumerate(s.tileDims))
    if (size > 1)
      tiles.push_back({d, size});

  // Common refinement of the transposed shape and the tile shape.
  struct Factor {
    int64_t source; // compressed iota dimension
    int64_t tileDim;
    int64_t size;
  };
  SmallVector<Factor> factors;
  size_t i = 0, j = 0;
  int64_t remP = transposedFrom.empty() ? 1 : reshape[transposedFrom[0]];
  int64_t remT = tiles.empty() ? 1 : tiles[0].second;
  while (i < transposedFrom.size() && j < tiles.size()) {
    int64_t f = std::min(remP, remT);
    if (std::max(remP, remT) % f != 0)
      return error = "the device order does not split into mesh axes",
             failure();
    factors.push_back({transposedFrom[i], tiles[j].first, f});
    remP /= f;
    remT /= f;
    if (remP == 1 && ++i < transposedFrom.size())
      remP = reshape[transposedFrom[i]];
    if (remT == 1 && ++j < tiles.size())
      remT = tiles[j].second;
  }
  // Device order: by iota dimension, major first; factors of one iota
  // dimension were produced major first.
  SmallVector<unsigned> deviceOrder(factors.size());
  std::iota(deviceOrder.begin(), deviceOrder.end(), 0);
  std::stable_sort(deviceOrder.begin(), deviceOrder.end(),
                   [&](unsigned a, unsigned b) {
                     return factors[a].source < factors[b].source;
                   });
  SmallVector<unsigned> axisOf(factors.size());
  AxisDecomposition result;
  for (auto [axis, f] : enumerate(deviceOrder)) {
    axisOf[f] = axis;
    result.axisSizes.push_back(factors[f].size);
  }
  result.dimAxes.resize(s.getTensorRank());
  for (auto [f, factor] : enumerate(factors)) {
    int64_t subgroup = factor.tileDim - s.getTensorRank();
    if (subgroup < 0)
      result.dimAxes[factor.tileDim].push_back(axisOf[f]);
    else if (s.subgroups[subgroup] == HloSharding::Subgroup::Manual)
      result.manualAxes.push_back(axisOf[f]);
    else
      result.replicatedAxes.push_back(axisOf[f]);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Matching against meshes
//===----------------------------------------------------------------------===//

/// Products of the sizes minor to `i` (exclusive), per position.
static SmallVector<int64_t> minorProducts(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> lo(sizes.size(), 1);
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 2; i >= 0; --i)
    lo[i] = lo[i + 1] * sizes[i + 1];
  return lo;
}

FailureOr<DimAxisNames> mapToMesh(const AxisDecomposition &decomposition,
                                  ArrayRef<MeshAxis> mesh,
                                  SmallVectorImpl<std::string> &replicated,
                                  std::string &error,
                                  SmallVectorImpl<std::string> *manual) {
  SmallVector<int64_t> meshSizes;
  for (const MeshAxis &axis : mesh)
    meshSizes.push_back(axis.size);
  int64_t n = decomposition.getNumDevices();
  if (product(meshSizes) != n)
    return error = ("the sharding is over " + Twine(n) +
                    " devices but the mesh has " + Twine(product(meshSizes)))
                       .str(),
           failure();
  SmallVector<int64_t> meshLo = minorProducts(meshSizes);
  SmallVector<int64_t> lo = minorProducts(decomposition.axisSizes);
  // Mesh axes (major to minor) making up device-space axis `a`.
  auto cover = [&](unsigned a, SmallVectorImpl<std::string> &out) {
    int64_t from = lo[a], to = lo[a] * decomposition.axisSizes[a];
    int64_t covered = 1;
    for (auto [m, axis] : enumerate(mesh))
      if (axis.size > 1 && meshLo[m] >= from && meshLo[m] * axis.size <= to) {
        out.push_back(axis.name);
        covered *= axis.size;
      }
    if (covered != decomposition.axisSizes[a])
      return error = "the device order of the sharding does not match the "
                     "mesh axes",
             failure();
    return success();
  };
  DimAxisNames dims(decomposition.dimAxes.size());
  for (auto [d, axes] : enumerate(decomposition.dimAxes))
    for (unsigned a : axes)
      if (failed(cover(a, dims[d])))
        return failure();
  for (unsigned a : decomposition.replicatedAxes)
    if (failed(cover(a, replicated)))
      return failure();
  if (!decomposition.manualAxes.empty() && !manual)
    return error = "the sharding is manual on some devices (last_tile_dims="
                   "{manual}), which only a manual region's boundary can be",
           failure();
  for (unsigned a : decomposition.manualAxes)
    if (failed(cover(a, *manual)))
      return failure();
  return dims;
}

FailureOr<SmallVector<int64_t>>
synthesizeMeshSizes(ArrayRef<AxisDecomposition> decompositions,
                    std::string &error) {
  if (decompositions.empty())
    return SmallVector<int64_t>();
  int64_t n = decompositions.front().getNumDevices();
  std::set<int64_t> boundaries = {1, n};
  for (const AxisDecomposition &d : decompositions) {
    if (d.getNumDevices() != n)
      return error = ("shardings over different device counts (" + Twine(n) +
                      " and " + Twine(d.getNumDevices()) + ")")
                         .str(),
             failure();
    for (auto [a, low] : enumerate(minorProducts(d.axisSizes))) {
      boundaries.insert(low);
      boundaries.insert(low * d.axisSizes[a]);
    }
  }
  SmallVector<int64_t> sizes;
  int64_t previous = 1;
  for (int64_t b : boundaries) {
    if (b == 1)
      continue;
    if (b % previous != 0)
      return error = "the shardings order devices in incompatible ways (no "
                     "common mesh)",
             failure();
    sizes.push_back(b / previous);
    previous = b;
  }
  std::reverse(sizes.begin(), sizes.end());
  return sizes;
}

} // namespace toast::xla
