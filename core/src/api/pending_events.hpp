// PendingEvents: events of tasks that may not be done yet, kept to be waited for later (a
// queue's submitted work, a buffer's users). add() drops done events at amortized O(1) per
// call, so that a long chain of work in flight does not make each submission scan all of
// it: from the front at every add() (tasks mostly end in submission order), and all of them
// whenever the list has doubled since the last full sweep.
// Not thread-safe: the owner guards it with its own mutex. Internal to the core.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

#include "plexus/task_event.hpp"

namespace plexus::detail {

class PendingEvents {
 public:
  using List = std::deque<std::shared_ptr<TaskEvent>>;

  void add(std::shared_ptr<TaskEvent> event) {
    while (!events_.empty() && events_.front()->is_done()) events_.pop_front();
    if (events_.size() >= sweep_at_) drop_done();
    events_.push_back(std::move(event));
  }
  bool contains(const std::shared_ptr<TaskEvent>& event) const {
    return std::find(events_.begin(), events_.end(), event) != events_.end();
  }
  void drop_done() {
    std::erase_if(events_, [](const auto& event) { return event->is_done(); });
    sweep_at_ = std::max(minimum_sweep, 2 * events_.size());
  }
  const List& events() const { return events_; }
  List take() {
    sweep_at_ = minimum_sweep;
    return std::exchange(events_, {});
  }

 private:
  static constexpr std::size_t minimum_sweep = 64;
  List events_;
  std::size_t sweep_at_ = minimum_sweep;
};

}  // namespace plexus::detail
