// Queue: submits command groups to one device of a runtime (Runtime::queue).
//
//   plexus::Queue q = rt.queue();                          // first device, in order
//   plexus::Queue ooo = rt.queue(*rt.devices()[1], plexus::QueueOrder::out_of_order);
//   plexus::Event e = q.submit([&](plexus::Handler& h) { ... });
//   q.wait();
//
// In order (the default): each command group also depends on the queue's previous one (so
// a failed group fails the groups after it, with the same error).
// Out of order: only on its buffer accesses' conflicts and depends_on(). Kernels run on the
// queue's device; host tasks on a host thread. A command group whose function throws is not
// submitted (the exception propagates). A cheap shared handle; every member is safe from
// any thread. Using a queue after its Runtime is destroyed throws
// plexus::error(invalid_argument).
#pragma once

#include <memory>
#include <utility>

#include "plexus/event.hpp"
#include "plexus/export.hpp"
#include "plexus/handler.hpp"

namespace plexus {

class Device;

enum class QueueOrder { in_order, out_of_order };

class PLEXUS_API Queue {
 public:
  explicit Queue(std::shared_ptr<detail::QueueState> state);

  template <class CommandGroupFunction>
  Event submit(CommandGroupFunction&& function) {
    Handler handler = begin_group();
    std::forward<CommandGroupFunction>(function)(handler);
    return end_group(handler);
  }

  // Blocks until every command group submitted to this queue is done; rethrows the first
  // failure among them.
  void wait();
  Device& device() const;
  QueueOrder order() const;
  std::weak_ptr<detail::RuntimeState> runtime_state() const;

 private:
  Handler begin_group();
  Event end_group(Handler& handler);

  std::shared_ptr<detail::QueueState> state_;
};

}  // namespace plexus
