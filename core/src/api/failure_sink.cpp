#include "failure_sink.hpp"

#include <algorithm>

namespace plexus::detail {

namespace {
bool observed(const FailureSink::Failure& failure) {
  return failure.observed && failure.observed->load(std::memory_order_acquire);
}
}  // namespace

void FailureSink::add(Failure failure) {
  std::lock_guard lock(mutex_);
  if (failures_.size() >= prune_at_) {
    std::erase_if(failures_, observed);
    prune_at_ = std::max<std::size_t>(64, 2 * failures_.size());
  }
  failures_.push_back(std::move(failure));
}

std::vector<FailureSink::Failure> FailureSink::take_unobserved() {
  std::vector<Failure> taken;
  {
    std::lock_guard lock(mutex_);
    taken.swap(failures_);
  }
  std::erase_if(taken, observed);
  return taken;
}

}  // namespace plexus::detail
