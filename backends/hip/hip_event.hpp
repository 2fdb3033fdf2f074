// HipEvent: one hipEvent_t of a device, destroyed (with the device current) by its last
// holder. Markers, completions and timings share events this way.
// Thread-safety: immutable; hipEventRecord/Synchronize on it are thread-safe.
// Ownership: shared; must not outlive its device (or the runtime).
#pragma once

#include <hip/hip_runtime_api.h>

#include <memory>

namespace plexus::hip {

class HipDevice;

class HipEvent {
 public:
  // hipEventCreateWithFlags(`flags`) on `device`; throws plexus::error(device).
  static std::shared_ptr<HipEvent> make(const HipDevice& device, unsigned flags);
  ~HipEvent();
  HipEvent(const HipEvent&) = delete;
  HipEvent& operator=(const HipEvent&) = delete;

  hipEvent_t handle() const { return event_; }
  const HipDevice& device() const { return device_; }

 private:
  explicit HipEvent(const HipDevice& device) : device_(device) {}

  const HipDevice& device_;
  hipEvent_t event_ = nullptr;
};

}  // namespace plexus::hip
