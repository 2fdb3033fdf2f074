#include "plexus/runtime.hpp"

#include "api/auto_replay.hpp"
#include "api/held_views.hpp"
#include "api/memory_report.hpp"
#include "api/queue_state.hpp"
#include "api/runtime_state.hpp"
#include "plexus/backend.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task.hpp"

namespace plexus {

Runtime::Runtime() : Runtime(Config::load()) {}

Runtime::Runtime(Config config) : Runtime(std::move(config), RuntimeOptions{}) {}

Runtime::Runtime(Config config, RuntimeOptions options) {
  set_log_level(config.log_level());
  state_ = std::make_shared<detail::RuntimeState>(std::move(config));
  state_->options = std::move(options);
}

Runtime::~Runtime() {
  if (!state_) return;
  if (!state_->shutdown()) {
    // Tasks still run past the shutdown deadline and use the components: kept until exit.
    new std::shared_ptr<detail::RuntimeState>(std::move(state_));
    return;
  }
  state_.reset();
}

const Config& Runtime::config() const { return state_->config; }
const PluginRegistry& Runtime::plugins() const { return state_->registry; }
const ComponentSet& Runtime::components() const { return *state_->components; }

std::vector<Device*> Runtime::devices() const { return state_->devices; }

std::shared_ptr<TaskEvent> Runtime::host_task(std::function<void()> work,
                                              std::vector<std::shared_ptr<TaskEvent>> dependencies) {
  Scheduler& scheduler = state_->scheduler();
  if (!work) throw error(error_category::invalid_argument, "host_task: the work is empty");
  detail::cancel_conflicting(*state_, nullptr, {}, dependencies, "a host task");
  auto event = TaskEvent::make("host task");
  state_->track(event);
  scheduler.submit(Task{event, std::move(dependencies), std::move(work), nullptr});
  return event;
}

void Runtime::wait() {
  detail::cancel_conflicting(*state_, nullptr, {}, {}, "a wait on the runtime", true);
  {
    // A task that waits for a host view this thread holds then fails instead of waiting.
    detail::check_wait(nullptr);  // a task waits for a view this thread holds: never ends
    detail::AwaitScope everything(detail::AwaitScope::Everything{});
    if (Scheduler* scheduler = state_->components->scheduler()) scheduler->wait_all();
  }
  state_->report_unobserved(false);
}

void Runtime::throw_asynchronous() { state_->report_unobserved(false); }

Queue Runtime::queue() {
  if (state_->devices.empty()) {
    throw error(error_category::unsupported,
                "no device is available for a queue; `plexus info` lists the backends and why "
                "each is unavailable");
  }
  auto queue = std::make_shared<detail::QueueState>(state_, *state_->devices.front(),
                                                    QueueOrder::in_order, false);
  detail::enable_auto_replay(*state_, *queue);
  return Queue(std::move(queue));
}

Queue Runtime::queue(Device& device, QueueOrder order) {
  if (!state_->has_device(&device)) {
    throw error(error_category::invalid_argument,
                "queue: device '" + device.info().name + "' is not one of this runtime's devices");
  }
  auto queue = std::make_shared<detail::QueueState>(state_, device, order);
  detail::enable_auto_replay(*state_, *queue);
  return Queue(std::move(queue));
}

namespace {

std::string device_list(const std::vector<Device*>& devices) {
  if (devices.empty()) return "none (`plexus info` lists the backends and why each is unavailable)";
  std::string text;
  for (std::size_t i = 0; i < devices.size(); ++i)
    text += (i ? ", " : "") + std::to_string(i) + ": '" + devices[i]->info().name + "' (" +
            std::string(to_string(devices[i]->info().type)) + ")";
  return text;
}

}  // namespace

Queue Runtime::queue(DeviceType type, QueueOrder order) {
  for (Device* device : state_->devices)
    if (device->info().type == type) return queue(*device, order);
  throw error(error_category::unsupported, "queue: no " + std::string(to_string(type)) +
                                               " device; the runtime's devices: " +
                                               device_list(state_->devices));
}

Queue Runtime::queue(std::size_t index, QueueOrder order) {
  if (index >= state_->devices.size())
    throw error(error_category::invalid_argument,
                "queue(" + std::to_string(index) + "): no device " + std::to_string(index) +
                    "; the runtime's devices: " + device_list(state_->devices));
  return queue(*state_->devices[index], order);
}

ProgramCacheStats Runtime::program_cache_stats() const {
  return {state_->programs.program_stats(), state_->programs.module_stats(),
          state_->programs.fusion_stats(), state_->programs.bundle_stats()};
}

MemoryStats Runtime::memory_report() const { return state_->memory_stats(); }

std::string Runtime::memory_report_text() const {
  return detail::describe(memory_report(), *state_);
}

LocationId Runtime::location_of(const Device& device) const {
  return state_->location_of(&device);
}

}  // namespace plexus
