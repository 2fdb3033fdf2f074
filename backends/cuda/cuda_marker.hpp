// CudaMarker: a QueueMarker of the CUDA backend: an event (CU_EVENT_DISABLE_TIMING) recorded
// on a queue's stream (CudaQueue::mark); another stream of the same device orders its later
// work behind it with cuStreamWaitEvent (CudaQueue::wait_for), on the GPU.
//
// The event is made at once and recorded either at once (record()) or later by the queue's
// launch thread, in order with the launches handed off before it (CudaLauncher::
// hand_off_record), so that marking a queue never makes its caller wait for the launch
// thread. wait_recorded() returns once the record call was made (true) or failed (false).
//
// Ownership: owns the event and destroys it (with the device's context pushed) when the
// last holder lets go, after its record call was made; must not outlive its device.
// Thread-safety: recorded by one thread (record() or the launch thread); the rest from any.
#pragma once

#include <cuda.h>

#include <atomic>

#include "plexus/device_queue.hpp"

namespace plexus::cuda {

class CudaDevice;

class CudaMarker final : public QueueMarker {
 public:
  // Creates the event, not yet recorded (the context must be current); throws
  // plexus::error(device) when cuEventCreate fails.
  explicit CudaMarker(const CudaDevice& device);
  ~CudaMarker() override;
  CudaMarker(const CudaMarker&) = delete;
  CudaMarker& operator=(const CudaMarker&) = delete;

  // Records the event on `stream` now (the context must be current); throws
  // plexus::error(device) when cuEventRecord fails.
  void record(CUstream stream);
  // Records the event on `stream` (on the launch thread, whose context is current) and
  // tells wait_recorded(): false when the driver refused.
  bool record_from_launcher(CUstream stream) noexcept;
  // Blocks (spinning: the launch thread is at work) until the record call was made; false
  // when it failed: the caller orders on the host instead.
  bool wait_recorded() const;

  const CudaDevice& device() const { return device_; }
  CUevent event() const { return event_; }

 private:
  enum State : int { pending, recorded, failed };

  const CudaDevice& device_;
  CUevent event_ = nullptr;
  std::atomic<int> state_{pending};
};

}  // namespace plexus::cuda
