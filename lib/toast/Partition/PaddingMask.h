//===- PaddingMask.h - Neutralize the padding of padded tiles ---*- C++ -*-===//
//
// A tile of a dimension the mesh axis does not divide holds padding past
// the dimension's end (docs/dialects.md). Padding is unspecified, so a
// reduction over a padded dimension first replaces it with the reduction's
// identity. The mask is built in PartIR:Core from a constant validity
// vector in the padded layout, sliced by the loop's range like the data.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_PARTITION_PADDINGMASK_H
#define TOAST_LIB_PARTITION_PADDINGMASK_H

#include "mlir/IR/Builders.h"

namespace toast::partition {

/// Returns `tile` (a tile of a dimension of `size` cut by `range`, at
/// dimension `dim`) with its padding replaced by zeros. Fails with a
/// located error when the element type has no zero.
mlir::FailureOr<mlir::Value> zeroPadding(mlir::OpBuilder &b,
                                         mlir::Location loc, mlir::Value tile,
                                         int64_t dim, mlir::Value range,
                                         int64_t size);

} // namespace toast::partition

#endif // TOAST_LIB_PARTITION_PADDINGMASK_H
