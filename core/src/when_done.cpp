// when_done and all_done (task_execution.hpp): the dependency counting every concurrent
// scheduler needs.
#include <algorithm>
#include <atomic>

#include "plexus/task_execution.hpp"

namespace plexus {

bool all_done(const std::vector<std::shared_ptr<TaskEvent>>& dependencies) {
  return std::all_of(dependencies.begin(), dependencies.end(),
                     [](const auto& dependency) { return !dependency || dependency->is_done(); });
}

void when_done(const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
               std::function<void()> ready) {
  struct Pending {
    std::atomic<std::size_t> count;
    std::function<void()> ready;
  };
  // One guard count keeps `ready` from running while callbacks are still being registered.
  auto pending = std::make_shared<Pending>();
  pending->count = dependencies.size() + 1;
  pending->ready = std::move(ready);
  auto arrive = [pending] {
    if (--pending->count == 0) pending->ready();
  };
  for (const auto& dependency : dependencies) {
    if (dependency) {
      dependency->on_done(arrive);
    } else {
      arrive();
    }
  }
  arrive();
}

}  // namespace plexus
