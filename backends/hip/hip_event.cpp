#include "hip_event.hpp"

#include "hip_device.hpp"
#include "hip_device_scope.hpp"

namespace plexus::hip {

std::shared_ptr<HipEvent> HipEvent::make(const HipDevice& device, unsigned flags) {
  std::shared_ptr<HipEvent> event(new HipEvent(device));
  ScopedDevice scope(device.runtime(), device.ordinal());
  if (const hipError_t result = device.runtime().event_create_with_flags(&event->event_, flags);
      result != hipSuccess)
    device.fail("creating an event", "hipEventCreateWithFlags", result);
  return event;
}

HipEvent::~HipEvent() {
  if (!event_) return;
  try {
    ScopedDevice scope(device_.runtime(), device_.ordinal());
    (void)device_.runtime().event_destroy(event_);
  } catch (...) {
    // the device could not be made current: nothing more to release
  }
}

}  // namespace plexus::hip
