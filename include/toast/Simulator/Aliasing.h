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
//    made when the loop starts (XLA's copy insertion);
//  * a dynamic_update_slice or scatter updates its operand's buffer in
//    place when it is that buffer's last reader (XLA's in-place updates),
//    by the same rule as a carry and its init;
//  * a result of the entry function reuses the buffer of a donated
//    argument (`tf.aliasing_output`, `jax.buffer_donor`, or the `donate`
//    option) when the argument is no longer read where the result is
//    written; a donated argument dies after its last use.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_ALIASING_H
#define TOAST_SIMULATOR_ALIASING_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace toast::sim {

/// A reshape or bitcast_convert (one operand, one result), or a marker
/// custom call (CustomCallOp::isMarker): its result is a view of the
/// operand when both have the same byte size.
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

/// The operand whose buffer result `result` of `op` may update in place:
/// dynamic_update_slice's operand, scatter's input `result`; -1 for other
/// ops.
int getInPlaceOperand(mlir::Operation *op, unsigned result);

/// The operand that result `result` of an in-place update writes
/// (dynamic_update_slice's update, scatter's updates `result`); -1 for
/// other ops.
int getUpdateOperand(mlir::Operation *op, unsigned result);

/// An argument of the entry function whose buffer the caller gives away:
/// result `result` (-1: none) may be written into it.
struct Donation {
  unsigned argument;
  int result;
};

/// The donated arguments of `func`, in argument order:
///  * `tf.aliasing_output = N` names result N;
///  * `jax.buffer_donor = true`, and every argument when `donateAll`, take
///    the first result not named or taken yet that `compatible(argument,
///    result)` accepts (with `donateAll`, arguments without one are not
///    donated; a `jax.buffer_donor` is donated anyway).
/// A named result that is not compatible is left alone (XLA rejects such an
/// alias; a partitioned program may shard the two differently).
/// `compatible` compares the buffers as the caller sees them: the
/// simulator compares device-local types, the analytic cost local shapes.
llvm::SmallVector<Donation> getDonations(
    mlir::func::FuncOp func, bool donateAll,
    llvm::function_ref<bool(unsigned argument, unsigned result)> compatible);

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

/// A result buffer of the entry function and the donated argument buffer
/// it may reuse.
struct BufferDonation {
  unsigned result;
  unsigned argument;
};

/// Applies `ties` once every buffer's last use is known (arguments and
/// returned values included), in the order of their loops' trace indices
/// (inner loops first), so that shared buffers chain: a result that shares
/// its carry can be a later loop's init. A carry shares its init's buffer
/// (the carry's bytes become 0 and the init lives as long as either) when
/// the tie is `always`, or when the loop is the last use of the init and
/// its only reader; otherwise it stays a copy. The block arguments' buffer
/// is read only inside the loop, so an inner loop can be the last reader
/// of an outer loop's carry. In-place updates are ties of the same kind
/// (the update's result and its operand, at the update).
///
/// `donations` come last: the storage of a returned value shares the
/// donated argument's when the argument's last use is no later than where
/// that storage is defined; otherwise the argument stays live to the end
/// (XLA copies the result into it there). Donated arguments must not have
/// been kept alive to the end by the caller. `applied`, if given, gets one
/// flag per tie: whether it shared. `Buffers` is a random-access container
/// of records with `bytes`, `def` (< 0 for arguments) and `lastUse`.
template <typename Buffers>
void resolveCarryTies(Buffers &buffers, llvm::ArrayRef<CarryTie> ties,
                      llvm::ArrayRef<BufferDonation> donations = {},
                      std::vector<char> *applied = nullptr) {
  llvm::DenseMap<unsigned, unsigned> sharedWith;
  auto storage = [&](unsigned buffer) {
    for (auto it = sharedWith.find(buffer); it != sharedWith.end();
         it = sharedWith.find(buffer))
      buffer = it->second;
    return buffer;
  };
  auto share = [&](unsigned into, unsigned from) {
    auto &target = buffers[into];
    auto &source = buffers[from];
    target.lastUse = std::max(target.lastUse, source.lastUse);
    source.bytes = 0;
    sharedWith[from] = into;
  };
  if (applied)
    applied->assign(ties.size(), 0);
  for (auto [k, tie] : llvm::enumerate(ties)) {
    unsigned init = storage(tie.init);
    unsigned carry = storage(tie.carry);
    if (init == carry)
      continue;
    if (!tie.always &&
        (tie.initReadElsewhere || buffers[init].lastUse > tie.at))
      continue;
    share(init, carry);
    if (applied)
      (*applied)[k] = 1;
  }
  for (const BufferDonation &donation : donations) {
    unsigned argument = storage(donation.argument);
    unsigned result = storage(donation.result);
    if (argument == result)
      continue;
    auto &arg = buffers[argument];
    const auto &res = buffers[result];
    if (res.def < 0 || arg.lastUse > res.def) {
      arg.lastUse = std::max(arg.lastUse, res.lastUse);
      continue;
    }
    share(argument, result);
  }
}

} // namespace toast::sim

#endif // TOAST_SIMULATOR_ALIASING_H
