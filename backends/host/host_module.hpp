// HostModule and HostKernel: a JIT-compiled host module (jit_module.hpp) and its kernels,
// as the DeviceModule / DeviceKernel a host device hands out.
//
// Ownership: the module owns its JIT (the machine code) and its kernels; it is shared by
// whoever launches them and must not outlive its device. Thread-safety: immutable after
// construction; kernels may be launched from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fiber_group.hpp"
#include "jit_module.hpp"
#include "plexus/device_module.hpp"

namespace plexus::host {

class HostDevice;
class HostModule;

// What the JIT made of one kernel: a work-group entry (no barriers) or a work-item entry
// run as fibers (barriers), and the bytes its __local variables take.
class HostKernel final : public DeviceKernel {
 public:
  using GroupEntry = void (*)(void**, plexus_work_item_state*);

  HostKernel(const HostModule& module, KernelInfo info, const PreparedKernel& prepared,
             void* entry);

  const KernelInfo& info() const override { return info_; }
  // The device's: a work-group is work-items (or fibers) of one thread, whatever the kernel.
  std::uint64_t max_work_group_size() const override;
  const HostModule& module() const { return module_; }
  bool uses_barriers() const { return uses_barriers_; }
  std::uint64_t static_local_bytes() const { return static_local_bytes_; }
  std::uint64_t private_bytes() const { return private_bytes_; }  // per work-item stack
  GroupEntry group_entry() const { return group_; }               // null with barriers
  ItemEntry item_entry() const { return item_; }                  // null without barriers

 private:
  const HostModule& module_;
  KernelInfo info_;
  bool uses_barriers_;
  std::uint64_t static_local_bytes_;
  std::uint64_t private_bytes_;
  GroupEntry group_ = nullptr;
  ItemEntry item_ = nullptr;
};

// `kernel` as a kernel of `device`; invalid_argument naming both when it was loaded for
// another device (or backend).
const HostKernel& host_kernel_of(const HostDevice& device, const DeviceKernel& kernel);

class HostModule final : public DeviceModule {
 public:
  // Compiles `bitcode` (plexus::error(build) when it cannot).
  HostModule(HostDevice& device, std::span<const std::byte> bitcode,
             const std::vector<KernelInfo>& kernels);
  ~HostModule() override;

  Device& device() const override;
  const HostDevice& host_device() const { return device_; }
  const std::vector<KernelInfo>& kernels() const override { return infos_; }
  const DeviceKernel& kernel(const std::string& name) const override;

 private:
  HostDevice& device_;
  std::unique_ptr<JitModule> jit_;
  std::vector<KernelInfo> infos_;
  std::vector<std::unique_ptr<HostKernel>> kernels_;
};

}  // namespace plexus::host
