#include "held_views.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "plexus/error.hpp"

namespace plexus::detail {

namespace {

struct Holder {
  std::vector<std::weak_ptr<TaskEvent>> held;  // only its own thread touches it
  const TaskEvent* awaiting = nullptr;         // under registry_mutex
  bool awaiting_all = false;                   // under registry_mutex
};

struct Entry {
  std::weak_ptr<TaskEvent> view;
  std::shared_ptr<Holder> holder;
  bool awaited = false;  // a task placed after the view depends on it
};

std::mutex registry_mutex;
std::unordered_map<const TaskEvent*, Entry> registry;  // held views; under registry_mutex
std::atomic<std::size_t> registered{0};               // registry.size(), read without the lock

// This thread's Holder; the registry shares it, so it outlives a thread that exits with a
// view still registered.
const std::shared_ptr<Holder>& my_holder() {
  thread_local const std::shared_ptr<Holder> holder = std::make_shared<Holder>();
  return holder;
}
Holder& me() { return *my_holder(); }

void forget_locked(const TaskEvent* view) {
  registry.erase(view);
  registered.store(registry.size(), std::memory_order_relaxed);
}

void prune() {
  std::vector<const TaskEvent*> gone;
  std::erase_if(me().held, [&](const auto& weak) {
    auto view = weak.lock();
    if (view && !view->is_done()) return false;
    if (view) gone.push_back(view.get());
    return true;
  });
  if (gone.empty()) return;
  std::lock_guard lock(registry_mutex);
  for (const TaskEvent* view : gone) forget_locked(view);
}

}  // namespace

void note_view_held(const std::shared_ptr<TaskEvent>& view) {
  prune();
  me().held.push_back(view);
  std::lock_guard lock(registry_mutex);
  registry[view.get()] = {view, my_holder()};
  registered.store(registry.size(), std::memory_order_relaxed);
}

void note_view_released(const TaskEvent* view) noexcept {
  std::erase_if(me().held, [view](const auto& weak) {
    auto event = weak.lock();
    return !event || event.get() == view;
  });
  std::lock_guard lock(registry_mutex);
  forget_locked(view);
}

bool held_by_this_thread(const TaskEvent& event) {
  for (const auto& weak : me().held) {
    auto view = weak.lock();
    if (view.get() == &event && !view->is_done()) return true;
  }
  return false;
}

bool this_thread_holds_views() {
  if (registered.load(std::memory_order_relaxed) == 0) return false;  // the common case
  for (const auto& weak : me().held) {
    auto view = weak.lock();
    if (view && !view->is_done()) return true;
  }
  return false;
}

AwaitScope::AwaitScope(const TaskEvent* awaited) {
  if (!this_thread_holds_views()) return;
  std::lock_guard lock(registry_mutex);
  me().awaiting = awaited;
  active_ = true;
}

AwaitScope::AwaitScope(Everything) {
  if (!this_thread_holds_views()) return;
  std::lock_guard lock(registry_mutex);
  me().awaiting_all = true;
  active_ = true;
}

AwaitScope::~AwaitScope() {
  if (!active_) return;
  std::lock_guard lock(registry_mutex);
  me().awaiting = nullptr;
  me().awaiting_all = false;
}

bool holder_waits_for(const TaskEvent& view, const TaskEvent& task) {
  if (registered.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lock(registry_mutex);
  auto found = registry.find(&view);
  if (found == registry.end() || found->second.view.lock().get() != &view) return false;
  const Holder& holder = *found->second.holder;
  if (holder.awaiting_all) return true;
  // The awaited event lives while its waiter waits (the waiter clears `awaiting` under the
  // lock before it returns); the events it leads to are held by the links themselves.
  const TaskEvent* next = holder.awaiting;
  std::shared_ptr<TaskEvent> link;
  for (int steps = 0; next && steps < 100000; ++steps) {
    if (next == &task) return true;
    link = next->waiting_on();
    next = link.get();
  }
  return false;
}

void note_dependency(TaskEvent& task, const std::shared_ptr<TaskEvent>& dependency) {
  if (registered.load(std::memory_order_relaxed) == 0 || !dependency || dependency->is_done())
    return;
  {
    std::lock_guard lock(registry_mutex);
    auto found = registry.find(dependency.get());
    if (found != registry.end() && found->second.view.lock() == dependency) {
      found->second.awaited = true;
      task.set_waiting_on(dependency);
      return;
    }
  }
  if (dependency->waiting_on()) task.set_waiting_on(dependency);  // waits for a view itself
}

void check_wait(const TaskEvent* awaited) {
  if (!this_thread_holds_views()) return;
  std::lock_guard lock(registry_mutex);
  const Holder* mine = &me();
  auto held_by_me = [&](const TaskEvent* event) {
    auto found = registry.find(event);
    return found != registry.end() && found->second.holder.get() == mine &&
           found->second.view.lock().get() == event && !event->is_done();
  };
  bool endless = false;
  if (!awaited) {
    for (const auto& [view, entry] : registry)
      endless = endless || (entry.holder.get() == mine && entry.awaited && held_by_me(view));
  } else {
    std::shared_ptr<TaskEvent> link;
    const TaskEvent* next = awaited;
    for (int steps = 0; next && !endless && steps < 100000; ++steps) {
      if (next->is_done()) break;
      endless = next != awaited && held_by_me(next);
      link = next->waiting_on();
      next = link.get();
    }
  }
  if (endless) {
    throw error(error_category::invalid_argument,
                "this thread waits for work that needs a host view it still holds: the wait "
                "could never end; destroy the view (Buffer::host_access) before waiting for "
                "work on the same data");
  }
}

}  // namespace plexus::detail
