// FusionSession: one queue's kernel fusion between start_fusion and its end (internal to
// the core). Kernels submitted meanwhile are held: their command groups, events and
// dependencies are kept here and enter the scheduler only when the fusion ends, unfused in
// order (cancel) or as one fused kernel (complete). `command` is the fusion command's
// event: submit returns it while fusing and complete_fusion returns it, so it stays valid
// whatever becomes of the fusion (it completes after the kernels, fused or not).
// FusionRegistry: the runtime's queues in fusion mode, so that a command elsewhere that
// depends on a held kernel (a buffer conflict, an explicit dependency, a wait) cancels that
// fusion first: the seed's early cancellation.
// Thread-safety: a session is guarded by its QueueState's mutex; the registry by its own.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "command_group.hpp"
#include "plexus/fusion_properties.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class QueueState;
class RuntimeState;

// A held kernel: its group (the handler's, never moved while held), its event and its
// dependencies. Held for automatic replay, a kernel has no event of its own (nobody sees
// one: submit returned the session's command) until it is released unfused, and only the
// unit's first kernel has dependencies: the others follow the kernel before them.
struct HeldKernel {
  std::unique_ptr<CommandGroup> group;
  std::shared_ptr<TaskEvent> event;
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
};

struct FusionSession {
  explicit FusionSession(std::shared_ptr<TaskEvent> fusion_command)
      : command(std::move(fusion_command)) {}
  const std::shared_ptr<TaskEvent> command;
  bool active = true;
  // Held for automatic replay (auto_replay.hpp), not by start_fusion: released quietly, never
  // fused; the queue's `fusing` stays false.
  bool automatic = false;
  std::vector<HeldKernel> held;
};

class FusionRegistry {
 public:
  void add(const std::shared_ptr<QueueState>& queue);
  // The queues still registered, pruned of those no longer fusing or gone.
  std::vector<std::shared_ptr<QueueState>> fusing();
  // Whether a queue other than `except` may be fusing (false: none is; true: call fusing()).
  // Lock-free: a queue submitting while it alone holds kernels (automatic replay) asks it at
  // every submission.
  bool others_than(const QueueState* except) const;

 private:
  std::mutex mutex_;
  std::vector<std::weak_ptr<QueueState>> queues_;
  // queues_.size(), and the queue when it is the only one, written under mutex_, read
  // without it: fusing() and others_than() skip the lock when none or only one is.
  std::atomic<std::size_t> registered_{0};
  std::atomic<const QueueState*> sole_{nullptr};
  void publish_locked();
};

// Queue operations (queue_fusion.cpp). `why` for a cancellation names the command that
// forced it (empty: cancel_fusion was called).
void start_fusion(RuntimeState& runtime, const std::shared_ptr<QueueState>& queue);
bool in_fusion(QueueState& queue);
// Holds a kernel's group; returns the fusion command's event.
std::shared_ptr<TaskEvent> hold(QueueState& queue, std::unique_ptr<CommandGroup> group,
                                std::vector<std::shared_ptr<TaskEvent>> dependencies,
                                std::string name);
void cancel_fusion(RuntimeState& runtime, QueueState& queue, const std::string& why);
std::shared_ptr<TaskEvent> complete_fusion(RuntimeState& runtime, QueueState& queue,
                                           const std::vector<FusionProperty>& properties);
// The queue's active session, made inactive; nullptr when not fusing.
std::shared_ptr<FusionSession> take_active(QueueState& queue);
// Submits the held kernels unfused, in order, then the fusion command after them.
void release_unfused(RuntimeState& runtime, QueueState& queue,
                     std::shared_ptr<FusionSession> session);
// Cancels the fusion of every queue but `except` whose held kernels the command described
// by `requirements` and `dependencies` depends on (or every fusion when `all`); with
// `automatic_only`, only automatic sessions.
void cancel_conflicting(RuntimeState& runtime, const QueueState* except,
                        std::span<const Requirement> requirements,
                        const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                        const std::string& what, bool all = false,
                        bool automatic_only = false);
// The same for `group`, submitted to `queue`: its name is made only if a fusion is cancelled
// (a submission pays nothing for it while no other queue holds kernels).
void cancel_conflicting(RuntimeState& runtime, const QueueState& queue, const CommandGroup& group);

}  // namespace plexus::detail
