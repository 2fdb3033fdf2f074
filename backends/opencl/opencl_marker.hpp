// OpenclMarker: a QueueMarker of the OpenCL backend: the event of a marker command
// (clEnqueueMarkerWithWaitList) on a queue, flushed so that another queue may wait for it;
// another queue of the same device orders its later commands behind it with
// clEnqueueBarrierWithWaitList (OpenclQueue::wait_for).
// Ownership: owns the event (released with the marker). Thread-safety: immutable.
#pragma once

#include "opencl_handle.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::opencl {

class OpenclDevice;

class OpenclMarker final : public QueueMarker {
 public:
  OpenclMarker(const OpenclDevice& device, cl_event event) : device_(device), event_(event) {}

  const OpenclDevice& device() const { return device_; }
  cl_event event() const { return event_.get(); }

 private:
  const OpenclDevice& device_;
  EventHandle event_;
};

}  // namespace plexus::opencl
