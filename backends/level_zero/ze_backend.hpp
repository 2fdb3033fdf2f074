// ZeBackend: the devices of every Level Zero driver, through the loader opened at run time
// (libze_loader.so.1). Without a device node for a driver (/dev/dri/renderD*, /dev/accel/accel*,
// /dev/dxg) it is unavailable without loading the loader (cheap on a machine with no such
// device). Without the loader, when zeInit finds no driver (the loader's
// ZE_RESULT_ERROR_UNINITIALIZED), or when the drivers report no device, it is unavailable
// with the reason.
//
// Ownership: owns the ZeLoader (closed last), the ZeDrivers (one context each) and the
// ZeDevices, destroyed in the reverse order. Thread-safety: devices are discovered in the
// constructor and immutable afterwards; every member is safe from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"
#include "ze_device.hpp"
#include "ze_driver.hpp"
#include "ze_loader.hpp"

namespace plexus::level_zero {

class ZeBackend final : public Backend {
 public:
  // Options: `library` (string): the loader to dlopen, default "libze_loader.so.1";
  // `device_node_check` (bool, default true): false loads the loader even without a device
  // node.
  explicit ZeBackend(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~ZeBackend() override;

  BackendStatus status() const override { return status_; }
  std::size_t device_count() const override { return devices_.size(); }

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  BackendStatus discover();

  // Declared in the order of creation: destroyed devices first, the loader last.
  std::unique_ptr<ZeLoader> loader_;
  std::vector<std::unique_ptr<ZeDriver>> drivers_;
  std::vector<std::unique_ptr<ZeDevice>> devices_;
  BackendStatus status_;
};

}  // namespace plexus::level_zero
