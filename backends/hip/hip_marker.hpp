// HipMarker: a QueueMarker of the hip backend: an event (hipEventDisableTiming) recorded on
// a queue's stream (HipQueue::mark); another stream of the same device orders its later
// work behind it with hipStreamWaitEvent (HipQueue::wait_for), on the GPU.
// Thread-safety: immutable once recorded. Ownership: shared; must not outlive its device.
#pragma once

#include <memory>

#include "hip_event.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::hip {

class HipMarker final : public QueueMarker {
 public:
  explicit HipMarker(std::shared_ptr<HipEvent> event) : event_(std::move(event)) {}
  const HipEvent& event() const { return *event_; }

 private:
  std::shared_ptr<HipEvent> event_;
};

}  // namespace plexus::hip
