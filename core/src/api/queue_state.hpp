// QueueState: what a Queue handle refers to (internal to the core). Thread-safety: the
// event bookkeeping is under `mutex`; the rest is immutable.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "plexus/queue.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class RuntimeState;

class QueueState {
 public:
  QueueState(std::weak_ptr<RuntimeState> owner, Device& target, QueueOrder queue_order)
      : runtime(std::move(owner)), device(&target), order(queue_order) {}

  const std::weak_ptr<RuntimeState> runtime;
  Device* const device;
  const QueueOrder order;

  std::mutex mutex;
  std::shared_ptr<TaskEvent> last;                  // the previous command group's event
  std::vector<std::shared_ptr<TaskEvent>> pending;  // not yet seen done
};

}  // namespace plexus::detail
