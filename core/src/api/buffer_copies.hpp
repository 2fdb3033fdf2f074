// CopyRunner: runs a memory-model plan's copies for one task (internal to the core).
// host -> device: copy_to_device on the task's queue (ordered before its launch);
// device -> host: copy_to_host on a queue of the source device, waited for;
// device -> device: directly when the target's queue can (DeviceQueue::copy_from_device:
// CUDA to CUDA, OpenCL devices sharing a context), on the target's queue (the task's: not
// waited for, ordered before the launch, so that it overlaps with the host's work);
// otherwise staged through page-locked host memory (staged_copy.hpp: chunks of the
// runtime's StagingPool from the source device when it pins host memory, else from the
// target, double-buffered so that the read of one chunk overlaps the write of the other),
// waited for. Staging never touches the buffer's host copy: the memory model does not count
// the host copy valid after a device -> device copy, and a bounce buffer pinned once per
// runtime is cheaper than pinning every buffer's host memory. Runtime::memory_report()
// counts both kinds (MemoryStats::device_copies).
// Queues of other devices than the task's are created on first use and live as long as
// the runner. Thread-safety: one runner per running task, used by that thread only.
#pragma once

#include <memory>
#include <unordered_map>

#include "plexus/device_queue.hpp"
#include "plexus/memory_model.hpp"

namespace plexus::detail {

class BufferStorage;
class RuntimeState;

// The region of `copy` in a buffer laid out as `desc` (the same at every location).
CopyLayout layout_of(const BufferCopy& copy, const BufferDesc& desc);

class CopyRunner {
 public:
  // `queue`: the task's queue on `placement` (both nullptr for the host).
  CopyRunner(RuntimeState& runtime, Device* placement, DeviceQueue* queue)
      : runtime_(runtime), placement_(placement), queue_(queue) {}

  void run(BufferStorage& buffer, const BufferCopy& copy);

 private:
  DeviceQueue& queue_for(Device* device);
  void device_to_device(BufferStorage& buffer, const BufferCopy& copy, const CopyLayout& layout);

  RuntimeState& runtime_;
  Device* placement_;
  DeviceQueue* queue_;
  std::unordered_map<Device*, std::unique_ptr<DeviceQueue>> others_;
};

}  // namespace plexus::detail
