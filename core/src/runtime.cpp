#include "plexus/runtime.hpp"

#include "plexus/backend.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task.hpp"

namespace plexus {

struct Runtime::State {
  explicit State(Config loaded)
      : config(std::move(loaded)), registry(plugin_search_path(config)) {}

  Config config;
  PluginRegistry registry;
  std::unique_ptr<ComponentSet> components;
};

Runtime::Runtime() : Runtime(Config::load()) {}

Runtime::Runtime(Config config) {
  set_log_level(config.log_level());
  state_ = std::make_unique<State>(std::move(config));
  for (const auto& warning : state_->registry.warnings()) logger().warn("{}", warning);
  for (const auto& problem : state_->registry.problems()) {
    logger().warn("unusable plugin skipped: {}", problem.message);
  }
  state_->components = std::make_unique<ComponentSet>(state_->config, state_->registry);
}

Runtime::~Runtime() = default;

const Config& Runtime::config() const { return state_->config; }
const PluginRegistry& Runtime::plugins() const { return state_->registry; }
const ComponentSet& Runtime::components() const { return *state_->components; }

std::vector<Device*> Runtime::devices() const { return available_devices(*state_->components); }

std::shared_ptr<TaskEvent> Runtime::host_task(std::function<void()> work,
                                              std::vector<std::shared_ptr<TaskEvent>> dependencies) {
  Scheduler* scheduler = state_->components->scheduler();
  if (!scheduler) {
    throw error(error_category::config, state_->config.origin().path +
                                            ": no scheduler is selected; set [scheduler] use = "
                                            "\"inorder\" (or another installed scheduler)");
  }
  if (!work) throw error(error_category::invalid_argument, "host_task: the work is empty");
  auto event = std::make_shared<TaskEvent>("host task");
  scheduler->submit(Task{event, std::move(dependencies), std::move(work)});
  return event;
}

void Runtime::wait() {
  if (Scheduler* scheduler = state_->components->scheduler()) scheduler->wait_all();
}

}  // namespace plexus
