#include "mpi_module.hpp"

#include "mpi_device.hpp"
#include "plexus/error.hpp"

namespace plexus::mpi {

MpiModule::MpiModule(MpiDevice& device, std::uint64_t id, std::vector<KernelInfo> kernels,
                     const std::vector<std::uint64_t>& group_limits)
    : device_(device), id_(id), kernels_(std::move(kernels)) {
  if (group_limits.size() != kernels_.size())
    throw error(error_category::internal, "mpi: the worker gave " +
                                              std::to_string(group_limits.size()) +
                                              " work-group limits for " +
                                              std::to_string(kernels_.size()) + " kernels");
  for (std::uint32_t i = 0; i < kernels_.size(); ++i)
    objects_.push_back(std::make_unique<MpiKernel>(kernels_[i], id_, i, group_limits[i]));
}

MpiModule::~MpiModule() {
  device_.session().post([to = device_.target(), id = id_](Engine& engine) {
    to.session->tell(engine, to.rank, MessageType::release_module, [&](Writer& out) { out.u64(id); });
  });
}

Device& MpiModule::device() const { return device_; }

const DeviceKernel& MpiModule::kernel(const std::string& name) const {
  for (const auto& each : objects_)
    if (each->info().name == name) return *each;
  std::string names;
  for (const KernelInfo& info : kernels_) names += (names.empty() ? "'" : ", '") + info.name + "'";
  throw error(error_category::invalid_argument, "no kernel '" + name + "' in the module on " +
                                                    device_.info().name + "; its kernels: " +
                                                    (names.empty() ? "none" : names));
}

}  // namespace plexus::mpi
