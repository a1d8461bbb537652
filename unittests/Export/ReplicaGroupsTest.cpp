//===- ReplicaGroupsTest.cpp - computeReplicaGroups on small meshes ------===//
//
// The replica groups of a collective over every subset of the axes of the
// meshes {4}, {2,4} and {2,2,2} (and every order of each subset), checked
// against literal tables for the documented cases and against an
// independent reference (coordinates by repeated division) for all.
//
//===----------------------------------------------------------------------===//

#include "toast/Export/ReplicaGroups.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <map>

using namespace toast::xla;
using Groups = llvm::SmallVector<llvm::SmallVector<int64_t>>;

namespace {

/// Coordinates of `device` on each axis of `mesh` (row-major numbering).
std::vector<int64_t> coordinates(llvm::ArrayRef<MeshAxis> mesh,
                                 int64_t device) {
  std::vector<int64_t> coords(mesh.size());
  for (int64_t i = static_cast<int64_t>(mesh.size()) - 1; i >= 0; --i) {
    coords[i] = device % mesh[i].size;
    device /= mesh[i].size;
  }
  return coords;
}

/// Reference: group devices by their coordinates off `axes`; within a group
/// order by the coordinates on `axes` (in the given order); order groups by
/// their first device.
Groups reference(llvm::ArrayRef<MeshAxis> mesh,
                 llvm::ArrayRef<std::string> axes) {
  int64_t n = 1;
  for (const MeshAxis &axis : mesh)
    n *= axis.size;
  std::vector<size_t> in, across;
  for (size_t i = 0; i < mesh.size(); ++i) {
    auto it = std::find(axes.begin(), axes.end(), mesh[i].name);
    if (it == axes.end())
      across.push_back(i);
  }
  for (const std::string &axis : axes)
    for (size_t i = 0; i < mesh.size(); ++i)
      if (mesh[i].name == axis)
        in.push_back(i);
  std::map<std::vector<int64_t>,
           std::vector<std::pair<std::vector<int64_t>, int64_t>>>
      byKey;
  for (int64_t d = 0; d < n; ++d) {
    std::vector<int64_t> c = coordinates(mesh, d), key, pos;
    for (size_t i : across)
      key.push_back(c[i]);
    for (size_t i : in)
      pos.push_back(c[i]);
    byKey[key].push_back({pos, d});
  }
  Groups groups;
  for (auto &[key, members] : byKey) {
    std::sort(members.begin(), members.end());
    auto &group = groups.emplace_back();
    for (auto &[pos, d] : members)
      group.push_back(d);
  }
  std::sort(groups.begin(), groups.end(),
            [](const auto &a, const auto &b) { return a.front() < b.front(); });
  return groups;
}

Groups compute(llvm::ArrayRef<MeshAxis> mesh,
               llvm::ArrayRef<std::string> axes) {
  llvm::SmallVector<llvm::StringRef> names(axes.begin(), axes.end());
  auto groups = computeReplicaGroups(mesh, names);
  EXPECT_TRUE(succeeded(groups));
  return succeeded(groups) ? *groups : Groups();
}

/// Every subset of the mesh's axes, in every order, matches the reference;
/// every group has the product of the axes' sizes as its size.
void checkAllSubsets(llvm::ArrayRef<MeshAxis> mesh) {
  size_t k = mesh.size();
  for (unsigned mask = 0; mask < (1u << k); ++mask) {
    std::vector<std::string> axes;
    for (size_t i = 0; i < k; ++i)
      if (mask & (1u << i))
        axes.push_back(mesh[i].name);
    do {
      SCOPED_TRACE("axes mask " + std::to_string(mask) + " first " +
                   (axes.empty() ? std::string("-") : axes.front()));
      Groups groups = compute(mesh, axes);
      EXPECT_EQ(groups, reference(mesh, axes));
      int64_t size = 1;
      for (const std::string &a : axes)
        for (const MeshAxis &m : mesh)
          if (m.name == a)
            size *= m.size;
      for (const auto &group : groups)
        EXPECT_EQ(static_cast<int64_t>(group.size()), size);
    } while (std::next_permutation(axes.begin(), axes.end()));
  }
}

TEST(ReplicaGroups, Mesh4AllSubsets) {
  std::vector<MeshAxis> mesh = {{"x", 4}};
  checkAllSubsets(mesh);
  EXPECT_EQ(compute(mesh, {"x"}), (Groups{{0, 1, 2, 3}}));
  EXPECT_EQ(compute(mesh, {}), (Groups{{0}, {1}, {2}, {3}}));
}

TEST(ReplicaGroups, Mesh2x4AllSubsets) {
  std::vector<MeshAxis> mesh = {{"a", 2}, {"b", 4}};
  checkAllSubsets(mesh);
  EXPECT_EQ(compute(mesh, {"a"}), (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(compute(mesh, {"b"}), (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(compute(mesh, {"a", "b"}), (Groups{{0, 1, 2, 3, 4, 5, 6, 7}}));
  // The major axis of the collective comes first in each group.
  EXPECT_EQ(compute(mesh, {"b", "a"}), (Groups{{0, 4, 1, 5, 2, 6, 3, 7}}));
  EXPECT_EQ(compute(mesh, {}),
            (Groups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}));
}

TEST(ReplicaGroups, Mesh2x2x2AllSubsets) {
  std::vector<MeshAxis> mesh = {{"x", 2}, {"y", 2}, {"z", 2}};
  checkAllSubsets(mesh);
  EXPECT_EQ(compute(mesh, {"x"}), (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(compute(mesh, {"y"}), (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  EXPECT_EQ(compute(mesh, {"z"}), (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(compute(mesh, {"x", "y"}), (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(compute(mesh, {"x", "z"}), (Groups{{0, 1, 4, 5}, {2, 3, 6, 7}}));
  EXPECT_EQ(compute(mesh, {"y", "z"}), (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(compute(mesh, {"z", "x"}), (Groups{{0, 4, 1, 5}, {2, 6, 3, 7}}));
  EXPECT_EQ(compute(mesh, {"x", "y", "z"}), (Groups{{0, 1, 2, 3, 4, 5, 6, 7}}));
}

TEST(ReplicaGroups, PaperMeshBM) {
  // PartIR's {B:4, M:2}: all_reduce over M, all_gather over B.
  std::vector<MeshAxis> mesh = {{"B", 4}, {"M", 2}};
  EXPECT_EQ(compute(mesh, {"M"}), (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(compute(mesh, {"B"}), (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
}

TEST(ReplicaGroups, FromMeshAttr) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<toast::partir::PartIRDialect>();
  auto mesh = toast::partir::MeshAttr::get(
      &ctx,
      {mlir::StringAttr::get(&ctx, "B"), mlir::StringAttr::get(&ctx, "M")},
      {4, 2});
  auto groups = computeReplicaGroups(mesh, {"B"});
  ASSERT_TRUE(succeeded(groups));
  EXPECT_EQ(*groups, (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(getAxisStride(getMeshAxes(mesh), "B"), 2);
  EXPECT_EQ(getAxisStride(getMeshAxes(mesh), "M"), 1);
}

TEST(ReplicaGroups, BadAxes) {
  std::vector<MeshAxis> mesh = {{"a", 2}, {"b", 4}};
  EXPECT_TRUE(failed(computeReplicaGroups(mesh, {"c"})));
  EXPECT_TRUE(failed(computeReplicaGroups(mesh, {"a", "a"})));
}

} // namespace
