//===- ScheduleWriter.h - A partitioning state as manual tactics -*- C++
//-*-===//
//
// The inverse of a schedule: the tilings of the entry function's arguments
// in a partitioning state (e.g. the one an automatic tactic found), written
// as manual tactics in the JSON format parseSchedule reads, over the names
// a user knows the arguments by (ValueNames.h). Applying the schedule tiles
// the same arguments in the same order and lets propagation rebuild the
// inside of the program; compareStates says whether that reproduced the
// state.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_PARTITION_SCHEDULEWRITER_H
#define TOAST_PARTITION_SCHEDULEWRITER_H

#include "toast/Partition/Schedule.h"

namespace toast::partition {

/// Manual tactics that tile and keep whole the entry function's arguments
/// as `state` does: one tactic per level of the arguments' tilings and
/// mesh axis, so that every argument's axes keep their order. Arguments are
/// selected by their first name that selects only them, else by `argN`.
Schedule scheduleFromState(ShardingState &state);

/// The JSON text of a schedule of manual tactics (with its mesh).
std::string printScheduleJson(const Schedule &schedule);

/// How many ops, tied classes and arguments of the function of `a` and of
/// `b` (two copies of one function) are partitioned differently.
unsigned countStateDifferences(ShardingState &a, ShardingState &b);

} // namespace toast::partition

#endif // TOAST_PARTITION_SCHEDULEWRITER_H
