// Queue: submits command groups to one device of a runtime (Runtime::queue).
//
//   plexus::Queue q = rt.queue();                          // first device, in order
//   plexus::Queue ooo = rt.queue(*rt.devices()[1], plexus::QueueOrder::out_of_order);
//   plexus::Event e = q.submit([&](plexus::Handler& h) { ... });
//   plexus::Event c = q.memcpy(dst, src, bytes, {e});     // shortcuts: one command each
//   q.parallel_for(kernel, plexus::nd_range(plexus::Range{n}), usm_x, usm_y).wait();
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

#include <chrono>
#include <concepts>
#include <memory>
#include <utility>
#include <vector>

#include "plexus/event.hpp"
#include "plexus/export.hpp"
#include "plexus/fusion_properties.hpp"
#include "plexus/handler.hpp"

namespace plexus {

class Device;
class CommandGraph;
class ExecutableGraph;

enum class QueueOrder { in_order, out_of_order };

class PLEXUS_API Queue {
 public:
  explicit Queue(std::shared_ptr<detail::QueueState> state);

  template <class CommandGroupFunction>
    requires std::invocable<CommandGroupFunction&, Handler&>
  Event submit(CommandGroupFunction&& function) {
    Handler handler = begin_group();
    std::forward<CommandGroupFunction>(function)(handler);
    return end_group(handler);
  }

  // Shortcuts (SYCL's queue shortcuts): a command group holding one command, after
  // `dependencies`; as the Handler members of the same names (handler.hpp, usm.hpp).
  Event memcpy(void* destination, const void* source, std::size_t bytes,
               const std::vector<Event>& dependencies = {}) {
    return submit([&](Handler& h) {
      for (const Event& e : dependencies) h.depends_on(e);
      h.memcpy(destination, source, bytes);
    });
  }
  Event memset(void* pointer, int value, std::size_t bytes,
               const std::vector<Event>& dependencies = {}) {
    return submit([&](Handler& h) {
      for (const Event& e : dependencies) h.depends_on(e);
      h.memset(pointer, value, bytes);
    });
  }
  template <class T>
  Event fill(void* pointer, const T& pattern, std::size_t count,
             const std::vector<Event>& dependencies = {}) {
    return submit([&](Handler& h) {
      for (const Event& e : dependencies) h.depends_on(e);
      h.fill(pointer, pattern, count);
    });
  }
  template <class T>
  Event copy(const T* source, T* destination, std::size_t count,
             const std::vector<Event>& dependencies = {}) {
    return submit([&](Handler& h) {
      for (const Event& e : dependencies) h.depends_on(e);
      h.copy(source, destination, count);
    });
  }
  template <class... Args>
  Event parallel_for(const Kernel& kernel, const NdRange& range, const Args&... args) {
    return submit([&](Handler& h) { h.parallel_for(kernel, range, args...); });
  }
  template <int Dims, class... Args>
  Event parallel_for(const Kernel& kernel, const Range<Dims>& range, const Args&... args) {
    return submit([&](Handler& h) { h.parallel_for(kernel, range, args...); });
  }

  // Submits an executable command graph as one command (graph.hpp). invalid_argument when
  // the graph belongs to another runtime or one of its buffers has been destroyed.
  Event submit(const ExecutableGraph& graph);

  // Blocks until every command group submitted to this queue is done; rethrows the first
  // failure among them (the others count as observed too: runtime_options.hpp).
  void wait();
  // wait() for at most `timeout`: true when all were done in time (a failure rethrown),
  // false when some are not done yet.
  bool wait_for(std::chrono::nanoseconds timeout);
  Device& device() const;
  QueueOrder order() const;

  // Kernel fusion (docs/api.md): after start_fusion, kernels submitted here are held (their
  // dependencies recorded) and submit returns the fusion command's event, which stays valid
  // whatever becomes of the fusion. cancel_fusion runs them unfused, in order;
  // complete_fusion fuses them into one kernel through the fusion component (see
  // fusion_properties.hpp) and returns that event. A command that depends on a held kernel
  // (another queue's kernel or a host access on one of its buffers, a host task or barrier
  // on this queue, a wait on this queue, the runtime or the event) cancels the fusion first,
  // with a warning. start_fusion while fusing throws plexus::error(invalid_argument).
  void start_fusion();
  void cancel_fusion();
  Event complete_fusion(const std::vector<FusionProperty>& properties = {});
  bool is_in_fusion_mode() const;
  std::weak_ptr<detail::RuntimeState> runtime_state() const;

 private:
  friend class CommandGraph;
  Handler begin_group();
  Event end_group(Handler& handler);

  std::shared_ptr<detail::QueueState> state_;
};

}  // namespace plexus
