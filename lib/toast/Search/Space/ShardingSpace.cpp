//===- ShardingSpace.cpp - The NDA search environment ---------------------===//
//
// Placeholder so that the library links while the action space and the
// analytic cost are written (see ShardingSpace.h).
//
//===----------------------------------------------------------------------===//

#include "toast/Search/ShardingSpace.h"

using namespace mlir;

namespace toast::search {

class NdaEnvironment::Impl {
public:
  Impl(func::FuncOp entry, partir::MeshAttr mesh, sim::DeviceSpec device,
       NdaEnvironmentOptions options)
      : nda(entry), mesh(mesh), device(std::move(device)), options(options) {}

  NamedDimensionAnalysis nda;
  partir::MeshAttr mesh;
  sim::DeviceSpec device;
  NdaEnvironmentOptions options;
  std::vector<NdaAction> actions;
  std::vector<unsigned> searchAxes;
  SearchState initial;
  AnalyticCost unpartitioned;
};

NdaEnvironment::NdaEnvironment(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
NdaEnvironment::~NdaEnvironment() = default;

FailureOr<std::unique_ptr<NdaEnvironment>>
NdaEnvironment::create(func::FuncOp entry, partir::MeshAttr mesh,
                       ArrayRef<std::string> axes, sim::DeviceSpec device,
                       NdaEnvironmentOptions options,
                       partition::ShardingState *start) {
  auto impl = std::make_unique<Impl>(entry, mesh, std::move(device), options);
  impl->initial.nodeAxes.assign(impl->nda.getNumNodes(), 0);
  return std::unique_ptr<NdaEnvironment>(new NdaEnvironment(std::move(impl)));
}

unsigned NdaEnvironment::getNumActions() const { return impl->actions.size(); }
std::string NdaEnvironment::describeAction(unsigned) const { return ""; }
SearchState NdaEnvironment::getInitialState() const { return impl->initial; }
bool NdaEnvironment::isLegal(const SearchState &, unsigned) const {
  return false;
}
void NdaEnvironment::apply(SearchState &, unsigned) const {}
double NdaEnvironment::cost(const SearchState &state) const {
  return analyticCost(state).rel.total;
}
const NdaAction &NdaEnvironment::getAction(unsigned action) const {
  return impl->actions[action];
}
StringRef NdaEnvironment::getAxisName(unsigned axis) const {
  return impl->mesh.getNames()[axis].getValue();
}
int NdaEnvironment::findAction(unsigned, ArrayRef<std::pair<unsigned, bool>>,
                               StringRef) const {
  return -1;
}
AnalyticCost NdaEnvironment::analyticCost(const SearchState &) const {
  return {};
}
const AnalyticCost &NdaEnvironment::getUnpartitionedCost() const {
  return impl->unpartitioned;
}
LogicalResult NdaEnvironment::materialize(const SearchState &,
                                          partition::ShardingState &) const {
  return failure();
}
LogicalResult NdaEnvironment::materialize(const SearchState &,
                                          func::FuncOp) const {
  return failure();
}
FailureOr<SearchState>
NdaEnvironment::importState(partition::ShardingState &) const {
  return failure();
}
FailureOr<sim::SimulationResult>
NdaEnvironment::simulateMaterialized(const SearchState &) const {
  return failure();
}
const NamedDimensionAnalysis &NdaEnvironment::getAnalysis() const {
  return impl->nda;
}
partir::MeshAttr NdaEnvironment::getMesh() const { return impl->mesh; }
const sim::DeviceSpec &NdaEnvironment::getDevice() const {
  return impl->device;
}
const NdaEnvironmentOptions &NdaEnvironment::getOptions() const {
  return impl->options;
}
ArrayRef<unsigned> NdaEnvironment::getSearchAxes() const {
  return impl->searchAxes;
}
std::string NdaEnvironment::describeState(const SearchState &) const {
  return "";
}

} // namespace toast::search
