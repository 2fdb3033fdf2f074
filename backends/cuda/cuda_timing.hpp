// CudaTiming: device timing for a CudaQueue (DeviceQueue::enable_timing). With timing on,
// each copy and launch is bracketed by timing events on the queue's stream (Scope): the
// span's start event before its first operation, its end event (recorded again) after each
// one. While timing is off, a Scope is one null-pointer branch: no event, no lock.
//
// Alignment to the host steady clock: a reference event is recorded on a calibration
// stream of its own (idle, so the GPU stamps it at once) between two steady-clock reads,
// then synchronized; its time is the middle of [before record, after synchronize] (best
// of 5: error <= half that bracket, a few microseconds). An operation's device time is
// the reference's host time plus cuEventElapsedTime(reference, event) (resolution about
// 0.5 us). The reference is measured again when it is older than one second at the start
// of a span: the elapsed time is a float in milliseconds, and the clocks drift apart.
//
// Thread-safety: the queue's one thread at a time; the timings take() returns may be read
// from any thread. Ownership: owned by its queue; the timings hold their events (and the
// reference they were measured against) and may outlive the queue, not the device.
#pragma once

#include <cuda.h>

#include <chrono>
#include <memory>

#include "plexus/device_queue.hpp"

namespace plexus::cuda {

class CudaDevice;

// A timing event and what it is measured against; destroys the event with the device's
// primary context pushed.
struct CudaReference;

class CudaTiming {
 public:
  // Creates the calibration stream and measures the first reference; throws
  // plexus::error(device) (unsupported when the driver lacks cuEventElapsedTime).
  explicit CudaTiming(CudaDevice& device);
  ~CudaTiming();
  CudaTiming(const CudaTiming&) = delete;
  CudaTiming& operator=(const CudaTiming&) = delete;

  // Around one operation enqueued on `stream`: before it (records the start event when no
  // span is open) and after it (records the end event). Failures to record are ignored:
  // the span then reports no times.
  void before(CUstream stream);
  void after(CUstream stream);
  // The open span (nullptr when it has no operation); starts a new one.
  std::shared_ptr<const OperationTiming> take();

  class Scope {
   public:
    Scope(CudaTiming* timing, CUstream stream) : timing_(timing), stream_(stream) {
      if (timing_) [[unlikely]]
        timing_->before(stream_);
    }
    ~Scope() {
      if (timing_) [[unlikely]]
        timing_->after(stream_);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CudaTiming* timing_;
    CUstream stream_;
  };

 private:
  void calibrate();
  CUevent new_event();

  CudaDevice& device_;
  CUstream calibration_stream_ = nullptr;
  std::shared_ptr<const CudaReference> reference_;
  CUevent start_ = nullptr, end_ = nullptr;  // the open span; owned until take()
  bool recorded_ = true;                     // every record of the open span succeeded
};

}  // namespace plexus::cuda
