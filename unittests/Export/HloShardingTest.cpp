//===- HloShardingTest.cpp - HloSharding strings and mesh axes -----------===//
//
// The HloSharding string builder (replicated, tiled, partially replicated,
// several axes on one dimension, transposed device orders), the parser,
// and the way back from tile assignments to mesh axes used by the import.
//
//===----------------------------------------------------------------------===//

#include "toast/Export/HloSharding.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>

using namespace toast::xla;

namespace {

const std::vector<MeshAxis> kBM = {{"B", 4}, {"M", 2}};
const std::vector<MeshAxis> kXYZ = {{"x", 2}, {"y", 2}, {"z", 2}};

std::string build(llvm::ArrayRef<MeshAxis> mesh, const DimAxisNames &dims) {
  std::string error;
  auto sharding = buildHloSharding(mesh, dims, error);
  EXPECT_TRUE(succeeded(sharding)) << error;
  return succeeded(sharding) ? printHloSharding(*sharding) : error;
}

HloSharding parse(llvm::StringRef text) {
  std::string error;
  auto sharding = parseHloSharding(text, error);
  EXPECT_TRUE(succeeded(sharding)) << text.str() << ": " << error;
  return succeeded(sharding) ? *sharding : HloSharding();
}

std::string parseError(llvm::StringRef text) {
  std::string error;
  EXPECT_TRUE(failed(parseHloSharding(text, error))) << text.str();
  return error;
}

TEST(HloShardingBuilder, Replicated) {
  EXPECT_EQ(build(kBM, {{}, {}}), "{replicated}");
  EXPECT_EQ(build(kBM, {}), "{replicated}");
  // Size-1 axes do not shard.
  EXPECT_EQ(build({{"a", 1}, {"b", 4}}, {{"a"}, {}}), "{replicated}");
}

TEST(HloShardingBuilder, Tiled) {
  EXPECT_EQ(build(kBM, {{"B"}, {"M"}}), "{devices=[4,2]<=[8]}");
  // M is the minor mesh axis: the device list is transposed.
  EXPECT_EQ(build(kBM, {{"M"}, {"B"}}), "{devices=[2,4]<=[4,2]T(1,0)}");
  EXPECT_EQ(build({{"x", 4}}, {{"x"}, {}}), "{devices=[4,1]<=[4]}");
  EXPECT_EQ(build({{"a", 1}, {"b", 4}}, {{"a"}, {"b"}}),
            "{devices=[1,4]<=[4]}");
}

TEST(HloShardingBuilder, PartiallyReplicated) {
  EXPECT_EQ(build(kBM, {{"B"}, {}}),
            "{devices=[4,1,2]<=[8] last_tile_dim_replicate}");
  EXPECT_EQ(build(kBM, {{}, {"M"}}),
            "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(build(kXYZ, {{"y"}, {}}),
            "{devices=[2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}");
  EXPECT_EQ(build(kXYZ, {{}, {"z"}}),
            "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(build(kXYZ, {{"x"}, {}}),
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
}

TEST(HloShardingBuilder, SeveralAxesOnOneDimension) {
  EXPECT_EQ(build(kBM, {{"B", "M"}, {}}), "{devices=[8,1]<=[8]}");
  EXPECT_EQ(build(kBM, {{"M", "B"}, {}}), "{devices=[8,1]<=[4,2]T(1,0)}");
  EXPECT_EQ(build(kXYZ, {{"z"}, {"x", "y"}}), "{devices=[2,4]<=[4,2]T(1,0)}");
  EXPECT_EQ(build(kXYZ, {{"x", "z"}, {}}),
            "{devices=[4,1,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}");
}

TEST(HloShardingBuilder, ManualSubgroup) {
  // Values of a shard_map body manual on some axes (kBM = {B:4, M:2}).
  std::string error;
  auto build = [&](const DimAxisNames &dims,
                   llvm::ArrayRef<std::string> manual) {
    auto s = buildHloSharding(kBM, dims, error, manual);
    EXPECT_TRUE(succeeded(s)) << error;
    return succeeded(s) ? printHloSharding(*s) : std::string();
  };
  EXPECT_EQ(build({{"B"}, {}}, {"M"}),
            "{devices=[4,1,2]<=[8] last_tile_dims={manual}}");
  EXPECT_EQ(build({{}, {}}, {"B"}),
            "{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}");
  EXPECT_EQ(build({{"M"}, {}}, {"B"}),
            "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={manual}}");
  EXPECT_EQ(build({{}, {}}, {"B", "M"}), "{manual}");
  EXPECT_TRUE(failed(buildHloSharding(kBM, {{"B"}, {}}, error, {"B"})));
}

TEST(HloShardingBuilder, Errors) {
  std::string error;
  EXPECT_TRUE(failed(buildHloSharding(kBM, {{"Q"}, {}}, error)));
  EXPECT_EQ(error, "unknown mesh axis \"Q\"");
  EXPECT_TRUE(failed(buildHloSharding(kBM, {{"B"}, {"B"}}, error)));
  EXPECT_EQ(error, "mesh axis \"B\" is used twice");
}

TEST(HloShardingParser, RoundTrip) {
  for (const char *text :
       {"{replicated}", "{manual}", "{maximal device=3}",
        "{devices=[4,1]<=[4]}", "{devices=[2,4]<=[4,2]T(1,0)}",
        "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", "{devices=[2,1]0,1}",
        "{devices=[2,2]0,2,1,3}"})
    EXPECT_EQ(printHloSharding(parse(text)), text);
}

TEST(HloShardingParser, Lenient) {
  EXPECT_EQ(printHloSharding(parse(" { devices = [2, 1] <= [2] } ")),
            "{devices=[2,1]<=[2]}");
  EXPECT_EQ(printHloSharding(
                parse("{devices=[2,1]<=[2] metadata={op_name=\"a{b}\"}}")),
            "{devices=[2,1]<=[2]}");
}

TEST(HloShardingParser, Unsupported) {
  EXPECT_EQ(parse("{{replicated}, {devices=[2]<=[2]}}").kind,
            HloSharding::Kind::Unsupported);
  EXPECT_EQ(parse("{manual}").kind, HloSharding::Kind::Manual);
  EXPECT_EQ(parse("{maximal device=1}").kind, HloSharding::Kind::Maximal);
}

TEST(HloShardingParser, Subgroups) {
  // JAX's partly manual shard_map: manual on the first mesh axis, copies on
  // the second; `last_tile_dims={replicated}` is last_tile_dim_replicate.
  HloSharding s =
      parse("{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}");
  EXPECT_EQ(s.kind, HloSharding::Kind::Tiled);
  EXPECT_EQ(s.getTensorRank(), 2);
  EXPECT_TRUE(s.hasManualSubgroup());
  EXPECT_EQ(printHloSharding(s),
            "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}");
  EXPECT_EQ(printHloSharding(
                parse("{devices=[2,1,2]<=[4] last_tile_dims={replicated}}")),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(printHloSharding(parse(
                "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}")),
            "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}");
  EXPECT_EQ(parseError("{devices=[2,2]<=[4] last_tile_dims={bogus}}"),
            "unsupported subgroup in 'last_tile_dims' (expected manual or "
            "replicated)");
  EXPECT_EQ(parseError("{devices=[2,2]<=[4] last_tile_dims={manual, manual}}"),
            "a subgroup kind appears twice in 'last_tile_dims'");
  EXPECT_EQ(parseError("{devices=[4]<=[4] last_tile_dims={manual}}"),
            "the subgroups (last_tile_dim_replicate, last_tile_dims) need a "
            "tile dimension each, after the tensor's");
}

TEST(HloShardingParser, Errors) {
  EXPECT_EQ(parseError("replicated"), "expected '{'");
  EXPECT_EQ(parseError("{devices=[2,2]<=[3]}"),
            "iota '<=[...]' must have 4 devices, the product of the tile "
            "dimensions");
  EXPECT_EQ(parseError("{devices=[2,1]0,0}"),
            "device ids must be a permutation of 0..1");
  EXPECT_EQ(parseError("{devices=[2,1]0}"), "expected 2 device ids, got 1");
  EXPECT_EQ(parseError("{devices=[2,1]<=[2]T(1)}"),
            "'T(...)' must be a permutation of the iota dimensions");
  EXPECT_EQ(parseError("{devices=[4]<=[4] bogus}"), "unexpected 'bogus}'");
  EXPECT_EQ(parseError("{replicated} x"),
            "unexpected text after the closing '}'");
  EXPECT_EQ(parseError("{devices=2,1]<=[2]}"),
            "expected 'devices=[d0,d1,...]'");
  EXPECT_EQ(parseError("{foo}"), "unsupported sharding '{foo}' (expected "
                                 "replicated, manual, maximal or devices=)");
}

TEST(HloSharding, DeviceList) {
  EXPECT_EQ(parse("{devices=[2,4]<=[4,2]T(1,0)}").getDeviceList(),
            (llvm::SmallVector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(parse("{devices=[8]<=[2,2,2]T(2,0,1)}").getDeviceList(),
            (llvm::SmallVector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(parse("{devices=[4]<=[4]}").getDeviceList(),
            (llvm::SmallVector<int64_t>{0, 1, 2, 3}));
}

AxisDecomposition decompose(llvm::StringRef text) {
  std::string error;
  auto d = decomposeHloSharding(parse(text), error);
  EXPECT_TRUE(succeeded(d)) << text.str() << ": " << error;
  return succeeded(d) ? *d : AxisDecomposition();
}

using Axes = llvm::SmallVector<unsigned>;

TEST(HloShardingDecompose, Iota) {
  AxisDecomposition d = decompose("{devices=[4,2]<=[8]}");
  EXPECT_EQ(d.axisSizes, (llvm::SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(d.dimAxes[0], Axes{0});
  EXPECT_EQ(d.dimAxes[1], Axes{1});

  d = decompose("{devices=[2,4]<=[4,2]T(1,0)}");
  EXPECT_EQ(d.axisSizes, (llvm::SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(d.dimAxes[0], Axes{1});
  EXPECT_EQ(d.dimAxes[1], Axes{0});

  d = decompose("{devices=[1,2,4]<=[8] last_tile_dim_replicate}");
  EXPECT_EQ(d.axisSizes, (llvm::SmallVector<int64_t>{2, 4}));
  EXPECT_TRUE(d.dimAxes[0].empty());
  EXPECT_EQ(d.dimAxes[1], Axes{0});
  EXPECT_EQ(d.replicatedAxes, Axes{1});
}

TEST(HloShardingDecompose, ManualSubgroup) {
  // `<=[2,2]T(1,0)` puts the minor device axis first: dimension 0 is split
  // on it, the manual subgroup is the major one.
  AxisDecomposition d =
      decompose("{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dims={manual}}");
  EXPECT_EQ(d.axisSizes, (llvm::SmallVector<int64_t>{2, 2}));
  EXPECT_EQ(d.dimAxes[0], Axes{1});
  EXPECT_EQ(d.manualAxes, Axes{0});
  std::string error;
  llvm::SmallVector<std::string> replicated, manual;
  llvm::SmallVector<MeshAxis> mesh = {{"a", 2}, {"b", 2}};
  auto dims = mapToMesh(
      decompose("{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"),
      mesh, replicated, error, &manual);
  ASSERT_TRUE(succeeded(dims)) << error;
  EXPECT_EQ(manual, (llvm::SmallVector<std::string>{"a"}));
  EXPECT_EQ(replicated, (llvm::SmallVector<std::string>{"b"}));
  EXPECT_TRUE(failed(mapToMesh(
      decompose("{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"),
      mesh, replicated, error)));
}

TEST(HloShardingDecompose, ExplicitDeviceLists) {
  AxisDecomposition d = decompose("{devices=[2,1]0,1}");
  EXPECT_EQ(d.axisSizes, (llvm::SmallVector<int64_t>{2}));
  EXPECT_EQ(d.dimAxes[0], Axes{0});
  d = decompose("{devices=[2,2]0,2,1,3}");
  EXPECT_EQ(d.axisSizes, (llvm::SmallVector<int64_t>{2, 2}));
  EXPECT_EQ(d.dimAxes[0], Axes{1});
  EXPECT_EQ(d.dimAxes[1], Axes{0});
  std::string error;
  EXPECT_TRUE(
      failed(decomposeHloSharding(parse("{devices=[2,2]0,3,1,2}"), error)));
  EXPECT_EQ(error, "the device list is not a product of mesh axes");
}

TEST(HloShardingDecompose, MapToMesh) {
  AxisDecomposition d = decompose("{devices=[4,2]<=[8]}");
  std::string error;
  llvm::SmallVector<std::string> replicated;
  auto dims = mapToMesh(d, kBM, replicated, error);
  ASSERT_TRUE(succeeded(dims)) << error;
  EXPECT_EQ(*dims, (DimAxisNames{{"B"}, {"M"}}));
  dims = mapToMesh(d, kXYZ, replicated, error);
  ASSERT_TRUE(succeeded(dims)) << error;
  EXPECT_EQ(*dims, (DimAxisNames{{"x", "y"}, {"z"}}));
  // An axis of size 8 cannot be split 4x2.
  EXPECT_TRUE(failed(mapToMesh(d, {{"w", 8}}, replicated, error)));
  EXPECT_EQ(error,
            "the device order of the sharding does not match the mesh axes");
  EXPECT_TRUE(failed(mapToMesh(d, {{"w", 4}}, replicated, error)));
  EXPECT_EQ(error, "the sharding is over 8 devices but the mesh has 4");

  d = decompose("{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}");
  replicated.clear();
  dims = mapToMesh(d, kBM, replicated, error);
  ASSERT_TRUE(succeeded(dims)) << error;
  EXPECT_EQ(*dims, (DimAxisNames{{}, {"M"}}));
  EXPECT_EQ(replicated, (llvm::SmallVector<std::string>{"B"}));
}

TEST(HloShardingDecompose, SynthesizeMesh) {
  std::string error;
  auto sizes = synthesizeMeshSizes(
      {decompose("{devices=[4,2]<=[8]}"),
       decompose("{devices=[1,2,4]<=[8] last_tile_dim_replicate}")},
      error);
  ASSERT_TRUE(succeeded(sizes)) << error;
  EXPECT_EQ(*sizes, (llvm::SmallVector<int64_t>{2, 2, 2}));
  sizes = synthesizeMeshSizes({decompose("{devices=[4,1]<=[4]}")}, error);
  ASSERT_TRUE(succeeded(sizes)) << error;
  EXPECT_EQ(*sizes, (llvm::SmallVector<int64_t>{4}));
  // Cuts at 4 and at 6 devices do not nest.
  EXPECT_TRUE(failed(synthesizeMeshSizes(
      {decompose("{devices=[3,4]<=[12]}"), decompose("{devices=[2,6]<=[12]}")},
      error)));
  EXPECT_TRUE(failed(synthesizeMeshSizes(
      {decompose("{devices=[4]<=[4]}"), decompose("{devices=[2]<=[2]}")},
      error)));
  EXPECT_EQ(error, "shardings over different device counts (4 and 2)");
}

/// Every way of placing the axes of `mesh` on the two dimensions of a
/// matrix (or nowhere), in every order, survives build -> print -> parse ->
/// decompose -> mapToMesh.
void checkRoundTrips(llvm::ArrayRef<MeshAxis> mesh) {
  size_t k = mesh.size();
  size_t placements = 1;
  for (size_t i = 0; i < k; ++i)
    placements *= 3;
  for (size_t p = 0; p < placements; ++p) {
    DimAxisNames dims(2);
    size_t code = p;
    for (size_t i = 0; i < k; ++i, code /= 3)
      if (code % 3 < 2)
        dims[code % 3].push_back(mesh[i].name);
    std::sort(dims[0].begin(), dims[0].end());
    do {
      std::sort(dims[1].begin(), dims[1].end());
      do {
        std::string text = build(mesh, dims);
        SCOPED_TRACE(text);
        HloSharding parsed = parse(text);
        if (parsed.kind == HloSharding::Kind::Replicated) {
          EXPECT_TRUE(dims[0].empty() && dims[1].empty());
          continue;
        }
        std::string error;
        auto d = decomposeHloSharding(parsed, error);
        ASSERT_TRUE(succeeded(d)) << error;
        llvm::SmallVector<std::string> replicated;
        auto back = mapToMesh(*d, mesh, replicated, error);
        ASSERT_TRUE(succeeded(back)) << error;
        EXPECT_EQ(*back, dims);
      } while (std::next_permutation(dims[1].begin(), dims[1].end()));
    } while (std::next_permutation(dims[0].begin(), dims[0].end()));
  }
}

TEST(HloSharding, RoundTripThroughMeshAxes) {
  checkRoundTrips(kBM);
  checkRoundTrips(kXYZ);
  checkRoundTrips({{"a", 2}, {"b", 3}, {"c", 4}});
}

} // namespace
