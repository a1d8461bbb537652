//===- ReplicaGroups.h - Device groups of mesh-axis collectives -*- C++ -*-===//
//
// A PartIR:HLO collective over mesh axes A communicates within groups of
// devices that differ only in their coordinates on A. XLA wants these groups
// as explicit device-id lists (`replica_groups`, global device ids). Devices
// are numbered row-major over the mesh axes in order.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_EXPORT_REPLICAGROUPS_H
#define TOAST_EXPORT_REPLICAGROUPS_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Export/HloSharding.h"

namespace toast::xla {

/// The mesh's axes in order.
llvm::SmallVector<MeshAxis> getMeshAxes(partir::MeshAttr mesh);

/// The replica groups of a collective over `axes` of `mesh`: one group per
/// combination of coordinates on the other axes (groups ordered row-major
/// over those axes in mesh order), each listing its devices row-major over
/// `axes` in the given order (major to minor), which is the order in which
/// all_gather concatenates. Fails on unknown or repeated axes. No axes
/// gives one singleton group per device.
llvm::FailureOr<llvm::SmallVector<llvm::SmallVector<int64_t>>>
computeReplicaGroups(llvm::ArrayRef<MeshAxis> mesh,
                     llvm::ArrayRef<llvm::StringRef> axes);
llvm::FailureOr<llvm::SmallVector<llvm::SmallVector<int64_t>>>
computeReplicaGroups(partir::MeshAttr mesh,
                     llvm::ArrayRef<llvm::StringRef> axes);

/// Stride of `axis` in device ids (product of the sizes of later axes);
/// the axis must exist.
int64_t getAxisStride(llvm::ArrayRef<MeshAxis> mesh, llvm::StringRef axis);

} // namespace toast::xla

#endif // TOAST_EXPORT_REPLICAGROUPS_H
