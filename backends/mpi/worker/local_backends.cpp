#include "local_backends.hpp"

#include <algorithm>

#include "plexus/no_components.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/plugin_search_path.hpp"

namespace plexus::mpi {

LocalBackends::LocalBackends(const Config& config, std::vector<std::string> names) {
  if (names.empty()) {
    names = config.selected_backends();
    std::erase(names, "mpi");
    if (names.empty()) names = {"host"};
  }
  if (std::find(names.begin(), names.end(), "mpi") != names.end())
    throw error(error_category::config,
                "plexus worker: a worker serves local backends; 'mpi' is rank 0's backend");
  const PluginRegistry registry(plugin_search_path(config));
  for (const std::string& name : names) {
    const PluginListing* listing = registry.find(ComponentKind::backend, name);
    if (!listing) {
      std::string available;
      for (const auto& each : registry.names(ComponentKind::backend))
        available += (available.empty() ? "" : ", ") + each;
      throw error(error_category::config, "plexus worker: no backend '" + name +
                                              "' is installed (available: " + available + ")");
    }
    PluginContext context{config.options_for(ComponentKind::backend, name), no_components()};
    std::shared_ptr<Component> component = PluginLibrary::load(*listing)->create(context);
    auto* backend = dynamic_cast<Backend*>(component.get());
    if (!backend) throw error(error_category::plugin, "plugin '" + name + "' is not a backend");
    const BackendStatus status = backend->status();
    if (!status.available) {
      unavailable_.push_back(name + ": " + status.reason);
    } else {
      for (std::size_t i = 0; i < backend->device_count(); ++i) {
        Device& device = backend->device(i);
        devices_.push_back({name, &device,
                            device.shares_host_memory() ? nullptr
                                                        : std::make_shared<StagingPool>(device)});
      }
    }
    components_.push_back(std::move(component));
  }
  // Each device made ready before rank 0 is welcomed: a CUDA device makes its context on
  // first use (about 0.13 s on an H200), which would otherwise land on the application's
  // first operation there, its first allocation, where a local device's lands at its
  // runtime's start (the scheduler's queues).
  for (const LocalDevice& each : devices_) {
    try {
      each.device->create_queue();
    } catch (const std::exception& e) {
      logger().warn("plexus worker: device '{}' did not open a queue: {}", each.device->info().name,
                    e.what());
    }
  }
}

LocalBackends::~LocalBackends() {
  // The devices' staging pools free their host memory while the devices are there.
  devices_.clear();
  // Backends go in reverse order of creation, each before its library (the component
  // handle keeps it).
  while (!components_.empty()) components_.pop_back();
}

}  // namespace plexus::mpi
