#include "my_scheduler.hpp"

#include <exception>

#include "plexus/component_lookup.hpp"

namespace my_scheduler {

MyScheduler::MyScheduler(plexus::PluginContext& context) {
  // Options come from the config's `[scheduler.my_scheduler]` table, e.g.
  //   [scheduler.my_scheduler]
  //   workers = 4
  // Read every option you support (unread keys are reported as probable typos).
  // const auto workers = context.options.get<std::int64_t>("workers", 1);

  // The PluginContext is valid only during this call: copy what you need.
  // available_devices: every device of the available backends, in config order.
  const auto devices = plexus::available_devices(context.components);
  if (!devices.empty()) first_device_ = devices.front();
  memory_ = context.components.memory();  // e.g. for transfer costs; unused here
  // TODO: start your worker threads here.
}

MyScheduler::~MyScheduler() {
  // TODO: wait for outstanding tasks, then stop and join your worker threads. (Inline
  // execution has nothing outstanding.)
}

void MyScheduler::submit(plexus::Task task) {
  std::lock_guard lock(mutex_);
  // 1. Placement, in submission order: a device for a kernel (TODO: your policy picks one
  //    of the devices here; default_placement takes the one the queue asked for, else the
  //    first), the host (nullptr) for host work. place_task records the task's buffer
  //    accesses and adds the earlier tasks they conflict with to task.dependencies.
  plexus::Device* placement =
      task.body ? plexus::default_placement(*task.body, first_device_) : nullptr;
  try {
    plexus::place_task(task, placement);
  } catch (...) {
    task.event->mark_failed(std::current_exception());  // e.g. no device for a kernel
    return;
  }
  // 2. Running, once the dependencies are done. TODO: instead of running inline, keep the
  //    task (with its placement) and run it on your own threads when it is ready.
  //    run_task_now waits for the dependencies, then runs the body: allocations, copies
  //    and the kernel launch on `queue`, which must be a queue of the placement's device
  //    (nullptr for the host). start_task does the same without waiting for the device.
  plexus::run_task_now(task, queues_.for_device(placement));
}

void MyScheduler::wait_all() {
  // TODO: block until every task submitted before this call is done. (Inline execution has
  // nothing outstanding once submit() returned; the lock waits for a submit() in flight.)
  std::lock_guard lock(mutex_);
}

}  // namespace my_scheduler
