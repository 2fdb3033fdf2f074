#include "my_backend.hpp"

#include <string>

#include "plexus/error.hpp"

namespace my_backend {

MyBackend::MyBackend(plexus::PluginContext& context) {
  // Options come from the config's `[backends.my_backend]` table, e.g.
  //   [backends.my_backend]
  //   driver = "/opt/vendor/lib/libvendor.so"
  // Unknown keys are reported as warnings, so read every option you support.
  const std::string driver = context.options.get<std::string>("driver", "");

  // TODO: open `driver` (dlopen it at run time rather than linking it, so that the plugin
  // still loads on machines without it), enumerate devices and, for each one:
  //   plexus::DeviceInfo info;
  //   info.name = ...; info.vendor = ...; info.type = plexus::DeviceType::gpu;
  //   info.formats = {plexus::BinaryFormat::spirv};
  //   devices_.push_back(std::make_unique<MyDevice>(*this, std::move(info)));
  // then set status_.available = true.
  status_.available = false;
  status_.reason = "my_backend: device discovery is not implemented yet";
}

plexus::BackendStatus MyBackend::status() const { return status_; }

std::size_t MyBackend::device_count() const { return devices_.size(); }

plexus::Device& MyBackend::device_at(std::size_t index) const { return *devices_[index]; }

}  // namespace my_backend
