// RuntimeOptions: what a Runtime does with failures nobody observed, and how long its
// destructor waits for tasks. Given to Runtime(Config, RuntimeOptions). Plain values.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <vector>

namespace plexus {

// Failures nobody observed: a task failed and no wait rethrew its failure (Event::wait,
// Queue::wait, TaskEvent::wait...), neither from its own event nor from a task that carries
// it on (a task whose dependency failed fails with the same error, one failure for both;
// host_access after a failed writer throws the writer's error). So a program that sees a
// failure at the end of a chain of dependent tasks (its wait, or its host access, throws it)
// has seen it; one that never sees it has it reported once, as the task where it arose.
using AsyncHandler = std::function<void(const std::vector<std::exception_ptr>&)>;

struct RuntimeOptions {
  // Like SYCL's async_handler: called on the calling thread with the failures nobody has
  // observed so far (each once), by Runtime::throw_asynchronous(), Runtime::wait() and the
  // destructor. It may throw from the first two; the destructor logs what it throws. Without
  // a handler, the destructor logs those failures at error level.
  AsyncHandler async_handler;
  // 0 (the default): the destructor waits for every task, however long. Otherwise it waits
  // this long, then cancels the tasks still running (TaskEvent::cancel: work not started
  // does not start; host-backend kernels, and OpenCL kernels built cancellable, stop at the
  // next work-group), waits as long again,
  // and then logs the tasks still running at error level and returns without them. Those
  // keep running on their threads; the runtime's components, plugins and device memory are
  // left allocated (never freed: the tasks may still use them) until the process exits.
  std::chrono::milliseconds shutdown_timeout{0};
};

}  // namespace plexus
