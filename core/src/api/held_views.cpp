#include "held_views.hpp"

#include <algorithm>
#include <vector>

namespace plexus::detail {

namespace {
thread_local std::vector<std::weak_ptr<TaskEvent>> held;

void prune() {
  std::erase_if(held, [](const auto& weak) {
    auto view = weak.lock();
    return !view || view->is_done();
  });
}
}  // namespace

void note_view_held(const std::shared_ptr<TaskEvent>& view) {
  prune();
  held.push_back(view);
}

void note_view_released(const TaskEvent* view) noexcept {
  std::erase_if(held, [view](const auto& weak) {
    auto event = weak.lock();
    return !event || event.get() == view;
  });
}

bool held_by_this_thread(const TaskEvent& event) {
  for (const auto& weak : held) {
    auto view = weak.lock();
    if (view.get() == &event && !view->is_done()) return true;
  }
  return false;
}

}  // namespace plexus::detail
