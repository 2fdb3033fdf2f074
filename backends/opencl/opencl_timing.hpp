// OpenclTiming: device timing for an OpenclQueue (DeviceQueue::enable_timing). The queue is
// created with CL_QUEUE_PROFILING_ENABLE; with timing on, each command's event is kept
// (retained) as the first or last of the open span, and its CL_PROFILING_COMMAND_START /
// _END (device nanoseconds) are read once the commands have finished.
//
// Alignment to the host steady clock, one ClockPair (device ns <-> host time) per take():
//  - clGetDeviceAndHostTimer (OpenCL 2.1+) bracketed by two steady-clock reads: the device
//    time maps to the middle of the bracket (best of 5; error <= half the bracket);
//  - where the device has none (CL_INVALID_OPERATION: PoCL 3.1, a host timer resolution
//    of 0), a calibration marker on a queue of its own: its CL_PROFILING_COMMAND_QUEUED
//    (taken by the driver at enqueue) maps to the middle of the steady-clock reads around
//    clEnqueueMarkerWithWaitList (best of 5).
// A pair older than one second is measured again (clock drift), at take() time.
//
// Thread-safety: the queue's one thread at a time; the timings take() returns may be read
// from any thread. Ownership: owned by its queue; its timings hold their events (retained)
// and may outlive the queue, not the device's context.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::opencl {

class OpenclDevice;

// A device time and the host time it corresponds to.
struct ClockPair {
  std::chrono::steady_clock::time_point host;
  cl_ulong device_ns = 0;
  std::chrono::steady_clock::time_point to_host(cl_ulong device) const {
    return host + std::chrono::nanoseconds(static_cast<std::int64_t>(device - device_ns));
  }
};

class OpenclTiming {
 public:
  // Measures the first ClockPair; throws plexus::error(device) when the device offers no
  // way to (neither timer nor a profiled marker).
  explicit OpenclTiming(OpenclDevice& device);

  // A command of the queue, enqueued now: the span's first (when none is open) and last.
  void add(cl_event event);
  // The open span (nullptr when it has no command); starts a new one.
  std::shared_ptr<const OperationTiming> take();

 private:
  ClockPair calibrate();

  OpenclDevice& device_;
  QueueHandle marker_queue_;  // only where the device has no device-and-host timer
  bool has_timer_ = true;
  ClockPair pair_;
  EventHandle first_, last_;
};

}  // namespace plexus::opencl
