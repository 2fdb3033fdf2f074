// CudaMarker: a QueueMarker of the CUDA backend: an event (CU_EVENT_DISABLE_TIMING) recorded
// on a queue's stream (CudaQueue::mark); another stream of the same device orders its later
// work behind it with cuStreamWaitEvent (CudaQueue::wait_for), on the GPU.
//
// Ownership: owns the event and destroys it (with the device's context pushed) when the
// last holder lets go; must not outlive its device. Thread-safety: immutable.
#pragma once

#include <cuda.h>

#include "plexus/device_queue.hpp"

namespace plexus::cuda {

class CudaDevice;

class CudaMarker final : public QueueMarker {
 public:
  // Creates the event and records it on `stream` (the context must be current); throws
  // plexus::error(device) naming the call that failed.
  CudaMarker(const CudaDevice& device, CUstream stream);
  ~CudaMarker() override;

  const CudaDevice& device() const { return device_; }
  CUevent event() const { return event_; }

 private:
  const CudaDevice& device_;
  CUevent event_ = nullptr;
};

}  // namespace plexus::cuda
