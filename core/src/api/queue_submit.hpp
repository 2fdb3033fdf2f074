// Submitting a command to a queue (internal to the core): the in-order chaining and
// bookkeeping shared by command groups (Queue::submit) and command graphs (graph_submit).
// Thread-safety: the caller holds queue.submit_mutex on an in-order queue (so that commands
// reach the memory model in queue order); the rest is under queue.mutex.
#pragma once

#include <memory>

#include "plexus/scheduler.hpp"
#include "queue_state.hpp"

namespace plexus::detail {

// The command a new command of an in-order queue must follow: the queue's previous one,
// unless it has completed (it orders nothing; a failed one fails the new one) and no trace
// records the queue's order. nullptr on an out-of-order queue or when there is none.
std::shared_ptr<TaskEvent> previous_command(QueueState& queue);

// Hands `task` to the scheduler as the queue's next command: it follows previous_command(),
// becomes the queue's last and is pending (Queue::wait). When the scheduler refuses it, its
// event fails (so do the queue's later commands) and the exception propagates.
void submit_to_queue(Scheduler& scheduler, QueueState& queue, Task task);

}  // namespace plexus::detail
