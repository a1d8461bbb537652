//===- Aliasing.h - Which values share a buffer -----------------*- C++ -*-===//
//
// The buffer-sharing rules of the simulator's peak memory, in one place so
// that the search's analytic cost (lib/toast/Search/Space) applies exactly
// the same ones:
//
//  * a reshape or bitcast_convert that keeps the byte size is a view of its
//    operand (XLA makes it a bitcast);
//  * a loop-carried value (a `while`'s tied class: operand i, the block
//    arguments i, result i) has one buffer, because XLA runs a `while` in
//    place. The carry (the block arguments' buffer, then the result's)
//    shares its init's buffer when the loop never writes it, or when the
//    loop is the init's last reader; otherwise it is a copy of the init
//    made when the loop starts (XLA's copy insertion).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_ALIASING_H
#define TOAST_SIMULATOR_ALIASING_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>

namespace toast::sim {

/// A reshape or bitcast_convert (one operand, one result): its result is a
/// view of the operand when both have the same byte size.
bool mayAliasOperand(mlir::Operation *op);

/// mayAliasOperand with equal byte sizes: no copy, no time.
bool isAliasingOp(mlir::Operation *op);

/// How result i of a data-flow region op (while, case, if) gets its buffer.
struct TiedResult {
  /// The operand that initializes the carried value (a `while`'s operand
  /// i), or -1: the result is a new buffer of the op (case/if).
  int init = -1;
  /// Every region passes the value on unchanged (a `while` body returning
  /// its block argument i): the loop never writes it.
  bool passThrough = false;
};

/// One entry per result of `op`; empty for ops without
/// DataFlowEdgeOpInterface.
llvm::SmallVector<TiedResult> getTiedResults(mlir::Operation *op);

/// Two buffers of a loop that may be one: a carry and its init (the block
/// arguments' buffer, allocated when the loop starts, and operand i's), or
/// the loop's result and its carry. `at` is the loop op's trace index.
struct CarryTie {
  unsigned carry;
  unsigned init;
  int64_t at;
  /// Share in any case: the loop never writes the value (passed through),
  /// or `carry` is the result, which the loop writes in place.
  bool always;
  /// The loop reads `init` otherwise too: as another operand, or captured
  /// inside its regions. Writing the carry in place would change it.
  bool initReadElsewhere;
};

/// Applies `ties` once every buffer's last use is known (arguments and
/// returned values included), in the order of their loops' trace indices
/// (inner loops first), so that shared buffers chain: a result that shares
/// its carry can be a later loop's init. A carry shares its init's buffer
/// (the carry's bytes become 0 and the init lives as long as either) when
/// the tie is `always`, or when the loop is the last use of the init and
/// its only reader; otherwise it stays a copy. The block arguments' buffer
/// is read only inside the loop, so an inner loop can be the last reader
/// of an outer loop's carry. `Buffers` is a random-access container of
/// records with `bytes` and `lastUse`.
template <typename Buffers>
void resolveCarryTies(Buffers &buffers, llvm::ArrayRef<CarryTie> ties) {
  llvm::DenseMap<unsigned, unsigned> sharedWith;
  auto storage = [&](unsigned buffer) {
    for (auto it = sharedWith.find(buffer); it != sharedWith.end();
         it = sharedWith.find(buffer))
      buffer = it->second;
    return buffer;
  };
  for (const CarryTie &tie : ties) {
    unsigned init = storage(tie.init);
    auto &from = buffers[init];
    auto &carry = buffers[tie.carry];
    if (!tie.always && (tie.initReadElsewhere || from.lastUse > tie.at))
      continue;
    from.lastUse = std::max(from.lastUse, carry.lastUse);
    carry.bytes = 0;
    sharedWith[tie.carry] = init;
  }
}

} // namespace toast::sim

#endif // TOAST_SIMULATOR_ALIASING_H
