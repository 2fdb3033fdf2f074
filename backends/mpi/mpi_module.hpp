// MpiModule: device code loaded on a worker's device, known on rank 0 by an id; the worker
// keeps the binary by content hash, so a module loaded again (on any device of that node)
// travels without its binary. Ownership: shared; releasing it tells the worker.
// Thread-safety: immutable; every member is safe from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "plexus/device_module.hpp"

namespace plexus::mpi {

class MpiDevice;

class MpiKernel final : public DeviceKernel {
 public:
  // `max_work_group_size`: the worker's kernel's (its reply to load_module).
  MpiKernel(KernelInfo info, std::uint64_t module, std::uint32_t index,
            std::uint64_t max_work_group_size)
      : info_(std::move(info)), module_(module), index_(index),
        max_work_group_size_(max_work_group_size) {}
  const KernelInfo& info() const override { return info_; }
  std::uint64_t max_work_group_size() const override { return max_work_group_size_; }
  std::uint64_t module() const { return module_; }
  std::uint32_t index() const { return index_; }

 private:
  KernelInfo info_;
  std::uint64_t module_;
  std::uint32_t index_;
  std::uint64_t max_work_group_size_;
};

class MpiModule final : public DeviceModule {
 public:
  // `group_limits`: each kernel's max_work_group_size on the worker, in the kernels' order.
  MpiModule(MpiDevice& device, std::uint64_t id, std::vector<KernelInfo> kernels,
            const std::vector<std::uint64_t>& group_limits);
  ~MpiModule() override;

  Device& device() const override;
  const std::vector<KernelInfo>& kernels() const override { return kernels_; }
  const DeviceKernel& kernel(const std::string& name) const override;

 private:
  MpiDevice& device_;
  std::uint64_t id_;
  std::vector<KernelInfo> kernels_;
  std::vector<std::unique_ptr<MpiKernel>> objects_;
};

}  // namespace plexus::mpi
