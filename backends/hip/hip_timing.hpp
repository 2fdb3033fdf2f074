// HipTiming: device timing for a HipQueue (DeviceQueue::enable_timing): a start event before
// a span's first operation and an end event re-recorded after each one, on the queue's
// stream. Times are hipEventElapsedTime from a reference event recorded on an idle
// calibration stream between two steady-clock reads (its host time: the middle of that
// bracket, best of 5; measured again when older than 1 s, since the elapsed time is a float
// in milliseconds and the clocks drift). Error: half the bracket plus the events' resolution.
//
// Thread-safety: the queue's one thread at a time; the timings take() returns may be read
// from any thread. Ownership: owned by its queue; its timings hold their events and may
// outlive the queue, not the device.
#pragma once

#include <hip/hip_runtime_api.h>

#include <chrono>
#include <memory>

#include "hip_event.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::hip {

class HipDevice;

class HipTiming {
 public:
  // Creates the calibration stream and measures the first reference; throws
  // plexus::error(device).
  HipTiming(const HipDevice& device, hipStream_t stream);
  ~HipTiming();
  HipTiming(const HipTiming&) = delete;
  HipTiming& operator=(const HipTiming&) = delete;

  // Around one operation of the queue (with the device current): before() records the
  // span's start event when the span is empty, after() (re-)records its end event.
  void before();
  void after();
  // The open span (nullptr when it has no operation); starts a new one.
  std::shared_ptr<const OperationTiming> take();

 private:
  struct Reference {
    std::shared_ptr<HipEvent> event;
    std::chrono::steady_clock::time_point host;
  };
  Reference calibrate();

  const HipDevice& device_;
  hipStream_t stream_;
  hipStream_t calibration_stream_ = nullptr;
  Reference reference_;
  std::shared_ptr<HipEvent> start_, end_;
};

}  // namespace plexus::hip
