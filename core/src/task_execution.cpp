#include "plexus/task_execution.hpp"

#include <algorithm>

#include "api/held_views.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "trace/tracer.hpp"

namespace plexus {

namespace {

// How often a worker blocked on a dependency checks that the wait can end (see below).
constexpr auto endless_wait_check = std::chrono::milliseconds(10);

std::exception_ptr endless_wait(const std::string& why) {
  return std::make_exception_ptr(error(
      error_category::invalid_argument,
      "this work conflicts with a host view that " + why +
          "; destroy the view (Buffer::host_access) before submitting work on the same data"));
}

// Waits until `dependency` of `task` is done; its failure, or nullptr (also for nullptr).
// The failure is not observed: the task carries it on (fail_before_start), and it is
// observed when a wait rethrows it from either. A dependency that is a host view held by a
// thread that waits for this task (directly or through other tasks) would never end: the
// task fails instead (see held_views.hpp).
std::exception_ptr wait_for(TaskEvent* task, const std::shared_ptr<TaskEvent>& dependency) {
  if (!dependency) return nullptr;
  if (detail::held_by_this_thread(*dependency)) {  // waiting would never end
    return endless_wait("the submitting thread still holds, and the scheduler runs it on that "
                        "thread");
  }
  if (!task || dependency->is_done()) {
    dependency->wait_done();
    return dependency->failure();
  }
  task->set_waiting_on(dependency);
  while (!dependency->wait_done_for(endless_wait_check)) {
    if (detail::holder_waits_for(*dependency, *task)) {
      task->set_waiting_on(nullptr);
      return endless_wait("a thread still holds while it waits for this work: the wait "
                          "could never end");
    }
  }
  task->set_waiting_on(nullptr);
  return dependency->failure();
}

thread_local const TaskEvent* running_here = nullptr;  // current_task()

// The task whose work runs on this thread while alive (see current_task()).
class CurrentTask {
 public:
  explicit CurrentTask(const TaskEvent* task) : previous_(running_here) { running_here = task; }
  ~CurrentTask() { running_here = previous_; }
  CurrentTask(const CurrentTask&) = delete;
  CurrentTask& operator=(const CurrentTask&) = delete;

 private:
  const TaskEvent* previous_;
};

// Fails `task`, not started, with `failure`: refused (it wrote nothing, its data stays as it
// was) unless a dependency failed leaving its data suspect (TaskEvent::failed_with_data).
// A dependency's own failure is carried on (TaskEvent::fail_with_failure_of).
void fail_before_start(const Task& task, std::exception_ptr failure) {
  bool refused = true;
  const TaskEvent* carried = nullptr;
  for (const auto& dependency : task.dependencies) {
    if (!dependency) continue;
    if (dependency->failed_with_data()) refused = false;
    if (!carried && failure && dependency->failure() == failure) carried = dependency.get();
  }
  if (carried) {
    task.event->fail_with_failure_of(*carried, refused);
  } else if (refused) {
    task.event->mark_refused(std::move(failure));
  } else {
    task.event->mark_failed(std::move(failure));
  }
}

// A task asked to stop before it started fails instead of running.
bool cancelled_before_start(const Task& task) {
  TaskEvent& event = *task.event;
  if (!event.cancel_requested()) return false;
  fail_before_start(task, std::make_exception_ptr(error(
      error_category::cancelled, "task '" + event.label() + "' was cancelled before it started")));
  return true;
}

// Completes `event`, or fails it with the failure of the first of `dependencies` (all done)
// that failed, carried on.
void complete_after(TaskEvent& event, const std::vector<std::shared_ptr<TaskEvent>>& dependencies) {
  for (const auto& dependency : dependencies) {
    if (dependency && dependency->failure()) {
      event.fail_with_failure_of(*dependency, false);
      return;
    }
  }
  event.mark_complete();
}

// True when `queue` now waits on the device for `dependency`'s work, enqueued on another
// queue (a marker behind it); false when the caller must wait on the host (done already,
// not on a queue, or the queues cannot order each other: different devices or backends).
bool ordered_on_device(TaskEvent& dependency, DeviceQueue& queue) {
  if (dependency.is_done() || !queue.orders_by_markers()) return false;
  if (detail::held_by_this_thread(dependency)) return false;  // wait_for reports it
  std::shared_ptr<const QueueMarker> marker;
  if (dependency.request_marker()) {
    marker = dependency.wait_marker();  // its starter records one once the work is enqueued
  } else if (DeviceQueue* pending = dependency.pending_on(); pending && pending != &queue) {
    // Enqueued before anyone asked: a marker on its queue now, from this thread.
    try {
      marker = pending->mark_from_any_thread();
    } catch (...) {
      return false;  // no marker: the caller waits on the host
    }
  }
  return marker && !dependency.is_done() && queue.wait_for(*marker);
}

}  // namespace

std::exception_ptr wait_for_dependencies(const Task& task) {
  for (const auto& dependency : task.dependencies) {
    if (std::exception_ptr failure = wait_for(task.event.get(), dependency)) return failure;
  }
  return nullptr;
}

const TaskEvent* current_task() { return running_here; }

Device* default_placement(const TaskBody& body, Device* fallback) {
  if (body.runs_on_host()) return nullptr;
  if (Device* preferred = body.preferred_device()) return preferred;
  return fallback;
}

void place_task(Task& task, Device* placement) {
  if (!task.body) return;
  if (task.body->runs_on_host() && placement) {
    throw error(error_category::invalid_argument, task.body->name() +
                                                      " must run on the host, not on device '" +
                                                      placement->info().name + "'");
  }
  if (!task.body->runs_on_host()) {
    if (!placement) {
      throw error(error_category::invalid_argument,
                  task.body->name() + " needs a device; there is none to place it on");
    }
    if (!task.body->can_run_on(*placement)) {
      throw error(error_category::invalid_argument,
                  task.body->name() + " cannot run on device '" + placement->info().name + "'");
    }
  }
  std::vector<std::shared_ptr<TaskEvent>> found = task.body->place(placement, task.event);
  for (const auto& dependency : found) detail::note_dependency(*task.event, dependency);
  for (const auto& dependency : task.dependencies) detail::note_dependency(*task.event, dependency);
  if (task.dependencies.empty()) {
    task.dependencies = std::move(found);
    return;
  }
  // Mostly the same events the submitter named (an in-order queue's previous task is also
  // the buffer's last writer): add only the others, the lists are short.
  const std::size_t given = task.dependencies.size();
  for (auto& dependency : found) {
    const auto end = task.dependencies.begin() + static_cast<std::ptrdiff_t>(given);
    if (given > 16 || std::find(task.dependencies.begin(), end, dependency) == end) {
      task.dependencies.push_back(std::move(dependency));
    }
  }
}

void run_task_now(Task& task, DeviceQueue* queue) {
  detail::TraceTaskScope traced(task);  // a branch on a null pointer when tracing is off
  if (std::exception_ptr failure = wait_for_dependencies(task)) {
    fail_before_start(task, std::move(failure));
    return;
  }
  if (cancelled_before_start(task)) return;
  task.event->mark_running();
  CurrentTask current(task.event.get());
  try {
    if (task.body) {
      task.body->run(queue);
    } else if (task.host_work) {
      task.host_work();
    }
  } catch (...) {
    task.event->mark_failed(std::current_exception());
    return;
  }
  task.event->mark_complete();
}

void start_task(Task& task, DeviceQueue* queue) {
  if (!queue || !task.body) {
    run_task_now(task, queue);
    return;
  }
  detail::TraceTaskScope traced(task);  // recorded like run_task_now (the launch names device)
  // Dependencies already in `queue` run before anything enqueued now: no need to wait.
  // Those in another queue of the device that `queue` can order behind: a marker.
  bool any_queued = false;
  for (const auto& dependency : task.dependencies) {
    if (dependency && dependency->pending_on() == queue && !dependency->is_done()) {
      any_queued = true;
    } else if (dependency && ordered_on_device(*dependency, *queue)) {
      any_queued = true;
    } else if (std::exception_ptr failure = wait_for(task.event.get(), dependency)) {
      fail_before_start(task, std::move(failure));
      return;
    }
  }
  if (cancelled_before_start(task)) return;
  task.event->mark_running();
  bool left_in_queue = false;
  CurrentTask current(task.event.get());
  try {
    left_in_queue = task.body->enqueue(queue);
  } catch (...) {
    task.event->mark_failed(std::current_exception());
    return;
  }
  if (!left_in_queue) {
    task.event->mark_complete();
    return;
  }
  task.event->set_pending_on(queue);
  task.event->enqueued(*queue);  // records a marker when a task on another queue asked
  // The dependencies not waited for are still to be checked once the queue ran them: the
  // completion takes the list over (the others in it are complete, their check is free).
  std::vector<std::shared_ptr<TaskEvent>> queued;
  if (any_queued) queued = std::move(task.dependencies);
  // The body stays alive (its buffers' host memory too) until the queue has run its work.
  queue->on_complete([event = task.event, body = std::move(task.body),
                      queued = std::move(queued)](std::exception_ptr failure) {
    if (failure) {
      // The queue's failure after a dependency's in it failed (an in-order queue fails what
      // follows a failure): that dependency's failure, carried on, when it is known by now.
      for (const auto& dependency : queued)
        if (dependency && dependency->failure()) return event->fail_with_failure_of(*dependency, false);
      event->mark_failed(failure);
      return;
    }
    // The queue ran the unwaited dependencies first, but their own completions may still be
    // on their way (another callback thread): finish once they are, with their failure.
    // Usually they are (an in-order queue's completions come in order): no counting then.
    if (all_done(queued)) {
      complete_after(*event, queued);
      return;
    }
    when_done(queued, [event, queued] { complete_after(*event, queued); });
  });
}

DeviceQueue* DeviceQueues::for_device(Device* device) {
  if (!device) return nullptr;
  auto& queue = queues_[device];
  if (!queue) queue = device->create_queue();
  return queue.get();
}

}  // namespace plexus
