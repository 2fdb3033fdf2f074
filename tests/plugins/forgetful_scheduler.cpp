// A scheduler that forgets one step of running a task, chosen by its option `forgets`:
//   "place_task": runs tasks without placing them;
//   "queue":      places them but runs device tasks without their device queue.
// The core must turn each into an error on the task naming the missing call
// (tests/runtime/api_scheduler_mistakes_test.cpp), never a silently wrong result.
#include <exception>
#include <string>

#include "plexus/component_lookup.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::test {

class ForgetfulScheduler final : public Scheduler {
 public:
  explicit ForgetfulScheduler(PluginContext& context)
      : forgets_(context.options.get<std::string>("forgets", "")) {
    if (forgets_ != "place_task" && forgets_ != "queue") {
      throw error(error_category::config, "forgetful: forgets = place_task or queue");
    }
    const auto devices = available_devices(context.components);
    if (!devices.empty()) first_device_ = devices.front();
  }

  void submit(Task task) override {
    Device* placement = task.body ? default_placement(*task.body, first_device_) : nullptr;
    if (forgets_ != "place_task") {
      try {
        place_task(task, placement);
      } catch (...) {
        task.event->mark_failed(std::current_exception());
        return;
      }
    }
    run_task_now(task, forgets_ == "queue" ? nullptr : queues_.for_device(placement));
  }
  void wait_all() override {}

 private:
  std::string forgets_;
  Device* first_device_ = nullptr;
  DeviceQueues queues_;  // submit() is called from one thread in the test
};

}  // namespace plexus::test

PLEXUS_PLUGIN(scheduler, forgetful, plexus::test::ForgetfulScheduler, "0.1.0",
              "test only: forgets one step of running a task")
