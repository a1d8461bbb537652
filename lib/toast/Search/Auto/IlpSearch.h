//===- IlpSearch.h - algorithm=ilp of the automatic tactic -------*- C++
//-*-===//
//
// Private to ToastSearch: formulates the entry function as the ILP of
// toast/Search/Ilp.h, solves it with CBC, writes the chosen strategies into
// the ShardingState and prices them with the simulator on a materialized
// copy, so that the report compares with the searches'.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_SEARCH_AUTO_ILPSEARCH_H
#define TOAST_LIB_SEARCH_AUTO_ILPSEARCH_H

#include "toast/Search/AutoPartition.h"

namespace toast::search {

/// Fills `report.search`, `report.actions` and `report.best` (its
/// `initial` must be set); `state` receives the strategies.
mlir::LogicalResult runIlp(const NdaEnvironment &space,
                           partition::ShardingState &state,
                           const AutoOptions &options, AutoReport &report);

} // namespace toast::search

#endif // TOAST_LIB_SEARCH_AUTO_ILPSEARCH_H
