// CopyRunner: runs a memory-model plan's copies for one task (internal to the core).
// host -> device: copy_to_device on the task's queue (ordered before its launch);
// device -> host: copy_to_host on a queue of the source device, waited for;
// device -> device: staged through the buffer's host copy (a region the host does not hold
// valid, so nothing valid is overwritten).
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

  RuntimeState& runtime_;
  Device* placement_;
  DeviceQueue* queue_;
  std::unordered_map<Device*, std::unique_ptr<DeviceQueue>> others_;
};

}  // namespace plexus::detail
