// ZeMarker: a QueueMarker of the level_zero backend: the event of the last operation a
// ZeQueue had appended when it was made (nullptr: none, reached at once). Another queue of
// the same device orders behind it with a barrier that waits for the event (ZeQueue::
// wait_for). Holding the event keeps it from going back to the pool.
// Thread-safety: immutable. Ownership: shared; must not outlive its device.
#pragma once

#include <memory>

#include "plexus/device_queue.hpp"
#include "ze_events.hpp"

namespace plexus::level_zero {

class ZeDevice;

class ZeMarker final : public QueueMarker {
 public:
  ZeMarker(const ZeDevice& device, std::shared_ptr<ZeEvent> event)
      : device_(device), event_(std::move(event)) {}

  const ZeDevice& device() const { return device_; }
  const std::shared_ptr<ZeEvent>& event() const { return event_; }

 private:
  const ZeDevice& device_;
  std::shared_ptr<ZeEvent> event_;
};

}  // namespace plexus::level_zero
