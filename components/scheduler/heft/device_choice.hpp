// The heft placement rule for one task, as a pure function over estimates (times in
// seconds on the scheduler's clock):
//   start  = max(ready, available)      ready: dependencies' estimated finish (or now);
//                                       available: when the device has done its queued work
//   finish = start + transfer + execution
// With a measured execution time on every candidate, the candidate with the earliest finish
// wins (the first of equals). While any candidate lacks one, the choice goes round-robin
// over all candidates (`round_robin` is the kernel's counter, advanced), so that every
// (kernel, device) pair gets measured.
// Thread-safety: a pure function; the caller owns `round_robin`.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace plexus::heft {

struct Candidate {
  double ready = 0.0;
  double available = 0.0;
  double transfer = 0.0;
  std::optional<double> execution;  // nullopt: not measured yet
};

struct Choice {
  std::size_t index = 0;  // into the candidates
  bool by_model = false;  // false: round-robin
  double start = 0.0;
  double finish = 0.0;  // estimated (execution counted as 0 when not measured)
};

double estimated_start(const Candidate& candidate);
double estimated_finish(const Candidate& candidate);

// `candidates` must not be empty.
Choice choose_device(const std::vector<Candidate>& candidates, std::size_t& round_robin);

}  // namespace plexus::heft
