#include "host_module.hpp"

#include "host_device.hpp"
#include "plexus/error.hpp"

namespace plexus::host {

HostKernel::HostKernel(const HostModule& module, KernelInfo info, const PreparedKernel& prepared,
                       void* entry)
    : module_(module),
      info_(std::move(info)),
      uses_barriers_(prepared.uses_barriers),
      static_local_bytes_(prepared.static_local_bytes),
      private_bytes_(prepared.private_bytes) {
  // What the code does decides, whatever the description said.
  info_.uses_barriers = uses_barriers_;
  if (static_local_bytes_ > 0) info_.uses_local_memory = true;
  if (uses_barriers_) {
    item_ = reinterpret_cast<ItemEntry>(entry);
  } else {
    group_ = reinterpret_cast<GroupEntry>(entry);
  }
}

std::uint64_t HostKernel::max_work_group_size() const {
  return module_.host_device().info().max_work_group_size;
}

HostModule::HostModule(HostDevice& device, std::span<const std::byte> bitcode,
                       const std::vector<KernelInfo>& kernels)
    : device_(device), jit_(std::make_unique<JitModule>(bitcode, kernels)) {
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    kernels_.push_back(
        std::make_unique<HostKernel>(*this, kernels[i], jit_->kernels()[i], jit_->entry(i)));
    infos_.push_back(kernels_.back()->info());
  }
}

HostModule::~HostModule() = default;

Device& HostModule::device() const { return device_; }

const DeviceKernel& HostModule::kernel(const std::string& name) const {
  for (const auto& kernel : kernels_)
    if (kernel->info().name == name) return *kernel;
  std::string known;
  for (const KernelInfo& info : infos_) known += (known.empty() ? "'" : ", '") + info.name + "'";
  throw error(error_category::invalid_argument,
              "the module has no kernel '" + name +
                  "'; its kernels: " + (known.empty() ? std::string("none") : known));
}

const HostKernel& host_kernel_of(const HostDevice& device, const DeviceKernel& kernel) {
  const auto* host_kernel = dynamic_cast<const HostKernel*>(&kernel);
  if (!host_kernel || &host_kernel->module().host_device() != &device)
    throw error(error_category::invalid_argument,
                "launch of '" + kernel.info().name + "' on '" + device.info().name +
                    "': the kernel was loaded for another device; load its module on this one");
  return *host_kernel;
}

}  // namespace plexus::host
