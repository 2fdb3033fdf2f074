#include "lane_load.hpp"

#include <algorithm>

namespace plexus::heft {

LaneLoad::LaneLoad(std::size_t slots) : pending_(std::max<std::size_t>(slots, 1), 0.0) {}

double LaneLoad::earliest() const { return *std::min_element(pending_.begin(), pending_.end()); }

std::size_t LaneLoad::place(double seconds) {
  const auto slot = static_cast<std::size_t>(
      std::min_element(pending_.begin(), pending_.end()) - pending_.begin());
  pending_[slot] += seconds;
  return slot;
}

void LaneLoad::finish(std::size_t slot, double seconds) {
  if (slot < pending_.size()) pending_[slot] = std::max(0.0, pending_[slot] - seconds);
}

}  // namespace plexus::heft
