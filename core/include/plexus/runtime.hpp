// Runtime: the application's entry point. Loads the config (Config::load search order
// unless one is given), discovers plugins, creates the selected components and exposes
// the devices of every available backend.
//
// Thread-safety: host_task() and wait() may be called from any thread. Ownership: the
// runtime owns its components; devices and events it hands out are valid while it lives.
// Destruction waits for outstanding tasks.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "plexus/component_set.hpp"
#include "plexus/config.hpp"
#include "plexus/device.hpp"
#include "plexus/export.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

class PLEXUS_API Runtime {
 public:
  Runtime();
  explicit Runtime(Config config);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const Config& config() const;
  const PluginRegistry& plugins() const;
  const ComponentSet& components() const;
  std::vector<Device*> devices() const;  // of every available backend, in config order

  // Runs `work` on a host thread once `dependencies` are done, through the scheduler.
  std::shared_ptr<TaskEvent> host_task(std::function<void()> work,
                                       std::vector<std::shared_ptr<TaskEvent>> dependencies = {});
  void wait();  // every task submitted so far is done

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace plexus
