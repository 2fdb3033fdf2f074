#include "device_choice.hpp"

#include <algorithm>

namespace plexus::heft {
namespace {

// Priors within this factor of the fastest count as equal: the prior only tells a GPU from
// a CPU, not two CPUs' shares of cores apart.
constexpr double comparable_speed = 2.0;

// Sent this many tasks to measure in one run, a pair with a provisional measurement is not
// sent more: its first run and one more.
constexpr unsigned provisional_explorations = 2;

double fastest_prior(const std::vector<Candidate>& candidates) {
  double fastest = 0.0;
  for (const Candidate& c : candidates) fastest = std::max(fastest, c.speed);
  return fastest;
}

}  // namespace

double estimated_start(const Candidate& candidate) {
  return std::max(candidate.ready, candidate.available);
}

double estimated_finish(const Candidate& candidate) {
  return estimated_start(candidate) + candidate.transfer + candidate.execution.value_or(0.0);
}

namespace {

std::size_t earliest_finish(const std::vector<Candidate>& candidates) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (estimated_finish(candidates[i]) < estimated_finish(candidates[best])) best = i;
  return best;
}

}  // namespace

std::optional<std::size_t> measurement_target(const std::vector<Candidate>& candidates) {
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (!candidates[i].execution && candidates[i].explored == 0) return i;
  for (const Candidate& c : candidates)
    if (!c.execution) return std::nullopt;
  const double chosen_speed = candidates[earliest_finish(candidates)].speed;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (c.provisional && c.explored < provisional_explorations &&
        c.speed > comparable_speed * chosen_speed)
      return i;
  }
  return std::nullopt;
}

Choice choose_device(const std::vector<Candidate>& candidates, std::size_t& round_robin) {
  Choice choice;
  const bool measured = std::all_of(candidates.begin(), candidates.end(),
                                    [](const Candidate& c) { return c.execution.has_value(); });
  if (const auto target = measurement_target(candidates)) {
    choice.index = *target;
    choice.explores = true;
  } else if (measured) {
    choice.by_model = true;
    choice.index = earliest_finish(candidates);
  } else {
    const double fastest = fastest_prior(candidates);
    std::vector<std::size_t> equals;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].speed * comparable_speed >= fastest) equals.push_back(i);
    choice.index = equals[round_robin++ % equals.size()];
  }
  choice.start = estimated_start(candidates[choice.index]);
  choice.finish = estimated_finish(candidates[choice.index]);
  return choice;
}

}  // namespace plexus::heft
