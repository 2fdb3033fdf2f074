#include "device_choice.hpp"

#include <algorithm>

namespace plexus::heft {

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
    choice.index = round_robin++ % candidates.size();
  }
  choice.start = estimated_start(candidates[choice.index]);
  choice.finish = estimated_finish(candidates[choice.index]);
  return choice;
}

}  // namespace plexus::heft
