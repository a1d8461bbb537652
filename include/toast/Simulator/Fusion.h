//===- Fusion.h - The default fusion model (XLA-like) -----------*- C++ -*-===//
//
// Which device-local values an XLA-like backend never writes to memory,
// and what a fusion reads. The simulator applies it to the lowered program
// and the search's analytic cost to the program it derives from a state,
// with these same functions (docs/simulator.md, "Fusion"):
//
//  * elementwise ops (convert, compare, select, clamp included) and data
//    movement (broadcast_in_dim, broadcast, reshape, transpose, slice,
//    concatenate, pad, reverse, bitcast_convert, iota, and marker custom
//    calls such as `@Sharding`, which backends remove) are *loop* ops; a
//    loop op's result is fused into its readers when every reader is a
//    loop op or a reduce of the same block (it is computed inside each of
//    them). With readers in several ops it is duplicated into each, unless
//    it is expensive (a transcendental, divide, power, ...) or duplicating
//    it moves more bytes than storing it ((n - 1) x its inputs > (n + 1) x
//    its result for n readers: a residual stream of adds would otherwise
//    be recomputed from every layer's outputs), which XLA does not do;
//  * a reduce absorbs the loop ops feeding it (input fusion), and its
//    result is fused into its reader only as an epilogue: a single use by
//    an elementwise op with as many elements as the reduce's result;
//  * partir_hlo.all_slice is the dynamic-slice at partition-id offsets XLA
//    lowers it to: a loop reader (a producer whose readers are loop ops,
//    reduces or all_slices fuses into it, and the fusion writes only the
//    slice), whose own result is stored (FusionKind::Slice);
//  * a contiguous dynamic_slice is a view, and so is a contiguous all_slice
//    of an entry-function argument (isContiguousSliceView);
//  * everything else (contractions, collectives, gathers, scatters,
//    other dynamic slices and updates, sorts, custom calls, loops, calls, the
//    return and a loop's yield) is a boundary: its operands are buffers.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_FUSION_H
#define TOAST_SIMULATOR_FUSION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace toast::sim {

/// How the fusion model sees an op.
enum class FusionKind {
  /// A boundary: never fused, never absorbs a producer.
  Opaque,
  /// Elementwise (the Elementwise trait, select, clamp).
  Elementwise,
  /// Data movement and iota: fused like elementwise ops.
  Movement,
  /// stablehlo.reduce: absorbs loop producers, fuses forward as an
  /// epilogue only.
  Reduce,
  /// partir_hlo.all_slice: absorbs loop producers (XLA fuses a
  /// broadcast or elementwise producer into the dynamic-slice an all_slice
  /// becomes) and stores its slice, never fused into its readers.
  Slice,
};

FusionKind getFusionKind(mlir::Operation *op);

/// A loop op XLA does not duplicate into several consumers.
bool isExpensiveToDuplicate(mlir::Operation *op);

/// A direct reader of a value: the reading op (null when it is not an op
/// of the value's block that reads it directly, e.g. a collective or a
/// slice the lowering put in between, the return, a nested region) and
/// the elements of its first result (for the reduce epilogue rule).
struct FusionReader {
  mlir::Operation *op = nullptr;
  int64_t resultElements = 0;
  /// getFusionKind(op) (Opaque when op is null), for
  /// isFusedIntoReadersByKind; isFusedIntoReaders computes it.
  FusionKind kind = FusionKind::Opaque;
  /// Tells readers apart when set (instead of `op`): the search's analytic
  /// cost reads through all_slices it does not build as ops.
  const void *key = nullptr;
};

/// Whether `producer`'s single result, of `elements` elements and
/// `resultBytes` bytes, is fused into its `readers` (one entry per use);
/// `inputBytes` returns what the producer's fusion reads (its materialized
/// inputs, through fused ones), which decides duplication; it is called
/// only when the decision depends on it.
bool isFusedIntoReaders(mlir::Operation *producer, int64_t elements,
                        llvm::ArrayRef<FusionReader> readers,
                        llvm::function_ref<double()> inputBytes,
                        double resultBytes);

/// isFusedIntoReaders on kinds computed beforehand (the search prices
/// thousands of states of one program, whose ops' kinds never change):
/// `kind` and `expensive` are getFusionKind and isExpensiveToDuplicate of
/// the producer, which has a single result, and each reader's `kind` is
/// set. `inputBytes` is called only when the decision depends on it
/// (duplication into several readers), as computing it walks the fusion.
/// Reader ops are only compared, never dereferenced.
bool isFusedIntoReadersByKind(FusionKind kind, bool expensive, int64_t elements,
                              llvm::ArrayRef<FusionReader> readers,
                              llvm::function_ref<double()> inputBytes,
                              double resultBytes);

/// Ops that take no time: constants (any constant-like op), partition and
/// replica ids, optimization barriers, and all_slice without the fusion
/// model (`fusion` false: it then keeps this device's chunk at no cost, the
/// model before all_slice was priced as the dynamic-slice XLA makes of it).
/// A view (a reshape that aliases its operand) takes none either; the
/// caller knows whether the op is one.
bool isFreeOp(mlir::Operation *op, bool fusion);

/// A dynamic_slice that reads a contiguous block of its operand (size 1 in
/// every dimension before the first partial one, whole after it) and whose
/// readers are ops: an XLA-like backend reads such a slice where it lies
/// (the dynamic-slice fusion of a scan's stacked weights), so it is a view
/// of its operand: no time and no buffer of its own, its readers read its
/// bytes. An all_slice is such a view only of an entry-function argument,
/// which lives through the whole step anyway: a view of an intermediate
/// would keep the whole buffer alive as long as the slice, where XLA's
/// dynamic-slice copies the slice out and frees the buffer.
bool isContiguousSliceView(mlir::Operation *op);
/// Whether a slice to `sizes` of a buffer of shape `whole` is one
/// contiguous block (isContiguousSliceView's shape test).
bool isContiguousSlice(llvm::ArrayRef<int64_t> sizes,
                       llvm::ArrayRef<int64_t> whole);

/// A dynamic_update_slice: when it updates in place and its update is
/// read nowhere else, the update's producer writes it into the slot (XLA
/// fuses the update into an in-place dynamic-update-slice fusion, or a
/// contraction writes its result there), so the op itself moves nothing.
bool writesUpdateInPlace(mlir::Operation *op);

/// The operand of which `op` reads only what it returns (slice,
/// dynamic_slice, gather, all_slice: operand 0), or -1. An unfused such op
/// counts the result's bytes for that operand, not the whole buffer.
int getSlicedOperand(mlir::Operation *op);

/// Calls `visit(buffer)` once per materialized buffer a fusion whose root
/// reads `operands` reads: a fused operand stands for what it read,
/// recursively. `fusedInputs[b]` lists what fused buffer `b` reads (empty
/// for materialized ones, negative entries are skipped; any container of
/// ranges of ints); `isFused(b)` tells them apart. `stamp` is scratch (one
/// entry per buffer, grown as needed) and `generation` a value no entry of it
/// has yet.
template <typename FusedInputs, typename IsFused, typename Visit>
void visitFusionInputs(llvm::ArrayRef<int> operands,
                       const FusedInputs &fusedInputs, IsFused isFused,
                       std::vector<unsigned> &stamp, unsigned generation,
                       Visit visit) {
  if (stamp.size() < fusedInputs.size())
    stamp.resize(fusedInputs.size(), 0);
  llvm::SmallVector<int, 8> stack(operands.rbegin(), operands.rend());
  while (!stack.empty()) {
    int b = stack.pop_back_val();
    if (b < 0 || stamp[b] == generation)
      continue;
    stamp[b] = generation;
    if (!isFused(b)) {
      visit(static_cast<unsigned>(b));
      continue;
    }
    const auto &inputs = fusedInputs[b];
    stack.append(inputs.rbegin(), inputs.rend());
  }
}

/// Calls `visit(buffer, bytes)` once per materialized buffer an op reading
/// `operands` reads, with the bytes it reads of it: as visitFusionInputs,
/// except that operand `sliced` (getSlicedOperand, -1 for none), when
/// materialized and read by no other operand, counts at most `sliceBytes`.
/// Negative operands are skipped. Both engines price reads with it.
template <typename FusedInputs, typename IsFused, typename BytesOf,
          typename Visit>
void visitReadBuffers(llvm::ArrayRef<int> operands, int sliced,
                      double sliceBytes, const FusedInputs &fusedInputs,
                      IsFused isFused, BytesOf bytesOf,
                      std::vector<unsigned> &stamp, unsigned generation,
                      Visit visit) {
  llvm::SmallVector<int, 4> ids(operands.begin(), operands.end());
  int slicedBuffer = -1;
  if (sliced >= 0 && ids[sliced] >= 0 && !isFused(ids[sliced]))
    std::swap(slicedBuffer, ids[sliced]);
  visitFusionInputs(ids, fusedInputs, isFused, stamp, generation,
                    [&](unsigned b) { visit(b, bytesOf(b)); });
  if (slicedBuffer >= 0 && stamp[slicedBuffer] != generation)
    visit(static_cast<unsigned>(slicedBuffer),
          std::min(bytesOf(slicedBuffer), sliceBytes));
}

} // namespace toast::sim

#endif // TOAST_SIMULATOR_FUSION_H
