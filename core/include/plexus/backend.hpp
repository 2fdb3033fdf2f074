// Backend: a family of devices behind one driver API (host, OpenCL, CUDA, ...).
//
// Contract: constructing a backend never fails because a driver or device is missing;
// the backend then reports itself unavailable with the reason and has no devices.
// Devices are discovered once, at construction, and owned by the backend.
// Thread-safety: status(), device_count(), device() and counters() are safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/device.hpp"

namespace plexus {

// One counter of what a backend did (`bytes_to_workers`: 1048576), for tools and tests.
struct BackendCounter {
  std::string name;
  std::uint64_t value = 0;
};

struct BackendStatus {
  bool available = false;
  std::string reason;  // why not available (or a note when available), for `plexus info`
};

class PLEXUS_API Backend : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::backend;
  ~Backend() override;

  virtual BackendStatus status() const = 0;
  virtual std::size_t device_count() const = 0;
  // Throws plexus::error(invalid_argument) when index >= device_count().
  Device& device(std::size_t index) const;
  // What the backend counted so far (data moved, messages); empty (the default) when it
  // counts nothing. May ask remote nodes: for tools and tests, not for a hot path.
  virtual std::vector<BackendCounter> counters() const { return {}; }

 protected:
  // Called by device() with an index already checked against device_count().
  virtual Device& device_at(std::size_t index) const = 0;
};

}  // namespace plexus
