#include "device_choice.hpp"

#include <algorithm>

namespace plexus::heft {
namespace {

// Priors within this factor of the fastest count as equal: the prior only tells a GPU from
// a CPU, not two CPUs' shares of cores apart.
constexpr double comparable_speed = 2.0;

}  // namespace

double estimated_start(const Candidate& candidate) {
  return std::max(candidate.ready, candidate.available);
}

double estimated_finish(const Candidate& candidate) {
  return estimated_start(candidate) + candidate.transfer + candidate.execution.value_or(0.0);
}

Choice choose_device(const std::vector<Candidate>& candidates, std::size_t& round_robin) {
  Choice choice;
  const bool measured = std::all_of(candidates.begin(), candidates.end(),
                                    [](const Candidate& c) { return c.execution.has_value(); });
  if (measured) {
    choice.by_model = true;
    for (std::size_t i = 1; i < candidates.size(); ++i) {
      if (estimated_finish(candidates[i]) < estimated_finish(candidates[choice.index])) {
        choice.index = i;
      }
    }
  } else {
    const auto unexplored = std::find_if(candidates.begin(), candidates.end(), [](const Candidate& c) {
      return !c.execution.has_value() && !c.explored;
    });
    if (unexplored != candidates.end()) {
      choice.index = static_cast<std::size_t>(unexplored - candidates.begin());
      choice.explores = true;
    } else {
      double fastest = 0.0;
      for (const Candidate& c : candidates) fastest = std::max(fastest, c.speed);
      std::vector<std::size_t> equals;
      for (std::size_t i = 0; i < candidates.size(); ++i)
        if (candidates[i].speed * comparable_speed >= fastest) equals.push_back(i);
      choice.index = equals[round_robin++ % equals.size()];
    }
  }
  choice.start = estimated_start(candidates[choice.index]);
  choice.finish = estimated_finish(candidates[choice.index]);
  return choice;
}

}  // namespace plexus::heft
