//===- ReplicaGroups.cpp - Device groups of mesh-axis collectives ---------===//

#include "toast/Export/ReplicaGroups.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace toast::xla {

SmallVector<MeshAxis> getMeshAxes(partir::MeshAttr mesh) {
  SmallVector<MeshAxis> axes;
  for (auto [name, size] : zip_equal(mesh.getNames(), mesh.getSizes()))
    axes.push_back({name.str(), size});
  return axes;
}

int64_t getAxisStride(ArrayRef<MeshAxis> mesh, StringRef axis) {
  int64_t stride = 1;
  for (const MeshAxis &m : llvm::reverse(mesh)) {
    if (m.name == axis)
      return stride;
    stride *= m.size;
  }
  llvm_unreachable("axis not in the mesh");
}

/// Calls `fn` with every device offset of a row-major walk over `axes`
/// (indices into `mesh`), the last axis varying fastest.
static void forEachOffset(ArrayRef<MeshAxis> mesh, ArrayRef<int64_t> axes,
                          ArrayRef<int64_t> strides,
                          function_ref<void(int64_t)> fn) {
  SmallVector<int64_t> coords(axes.size(), 0);
  while (true) {
    int64_t offset = 0;
    for (auto [k, a] : enumerate(axes))
      offset += coords[k] * strides[a];
    fn(offset);
    int64_t k = static_cast<int64_t>(axes.size()) - 1;
    for (; k >= 0; --k) {
      if (++coords[k] < mesh[axes[k]].size)
        break;
      coords[k] = 0;
    }
    if (k < 0)
      return;
  }
}

FailureOr<SmallVector<SmallVector<int64_t>>>
computeReplicaGroups(ArrayRef<MeshAxis> mesh, ArrayRef<StringRef> axes) {
  SmallVector<int64_t> strides(mesh.size(), 1);
  for (int64_t i = static_cast<int64_t>(mesh.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * mesh[i + 1].size;
  SmallVector<int64_t> inGroup, across;
  SmallVector<bool> used(mesh.size(), false);
  for (StringRef axis : axes) {
    auto it =
        llvm::find_if(mesh, [&](const MeshAxis &m) { return m.name == axis; });
    if (it == mesh.end())
      return failure();
    int64_t index = it - mesh.begin();
    if (used[index])
      return failure();
    used[index] = true;
    inGroup.push_back(index);
  }
  for (auto [i, m] : enumerate(mesh))
    if (!used[i])
      across.push_back(i);
  SmallVector<SmallVector<int64_t>> groups;
  forEachOffset(mesh, across, strides, [&](int64_t base) {
    SmallVector<int64_t> &group = groups.emplace_back();
    forEachOffset(mesh, inGroup, strides,
                  [&](int64_t offset) { group.push_back(base + offset); });
  });
  return groups;
}

FailureOr<SmallVector<SmallVector<int64_t>>>
computeReplicaGroups(partir::MeshAttr mesh, ArrayRef<StringRef> axes) {
  return computeReplicaGroups(getMeshAxes(mesh), axes);
}

} // namespace toast::xla
