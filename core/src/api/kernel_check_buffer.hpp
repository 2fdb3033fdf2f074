// KernelCheckBuffer: the check record (plexus/kernel_checks.hpp) of one launch of a checked
// kernel (KernelInfo::bounds_checked): made from the command group's arguments (each
// accessor's own range, each __local argument's size), copied to the device before the
// launch, read back after it; a violation a work-item recorded becomes the task's
// plexus::error(invalid_argument) naming the kernel, the argument, the index, the range
// and the work-item. Internal to the core.
//
// Ownership: holds a device allocation of the placement, freed when destroyed.
// Thread-safety: one launch's, used by the thread that runs it.
#pragma once

#include <cstdint>
#include <vector>

#include "command_group.hpp"
#include "plexus/kernel_argument.hpp"

namespace plexus {
class Device;
class DeviceQueue;
}  // namespace plexus

namespace plexus::detail {

class KernelCheckBuffer {
 public:
  // Allocates the record on `device` and enqueues its copy on `queue`.
  KernelCheckBuffer(const CommandGroup& group, Device& device, DeviceQueue& queue);
  ~KernelCheckBuffer();
  KernelCheckBuffer(const KernelCheckBuffer&) = delete;
  KernelCheckBuffer& operator=(const KernelCheckBuffer&) = delete;

  KernelArgument argument() const { return KernelArgument::of_allocation(allocation_); }
  // After the launch: reads the record back (waits for `queue`) and throws the violation.
  void verify(DeviceQueue& queue) const;

 private:
  const CommandGroup& group_;
  Device& device_;
  void* allocation_ = nullptr;
  std::vector<std::uint64_t> words_;
};

}  // namespace plexus::detail
