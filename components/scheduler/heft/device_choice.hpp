// The heft placement rule for one task, as a pure function over estimates (times in
// seconds on the scheduler's clock):
//   start  = max(ready, available)      ready: dependencies' estimated finish (or now);
//                                       available: when the device has done its queued work
//   finish = start + transfer + execution
// With a measured execution time on every candidate, the candidate with the earliest finish
// wins (the first of equals). While any candidate lacks one:
//   1. a candidate without a measurement that has not been sent this kernel yet
//      (`explored` false) gets the task, so that every (kernel, device) pair is measured
//      (Choice::explores: the caller marks it explored);
//   2. otherwise the task goes to the fastest candidate by the prior `speed` (a GPU is not
//      given half of the big kernels before anything is measured), round-robin among those
//      within a factor of 2 of the fastest
//      (`round_robin` is the kernel's counter, advanced): with comparable priors, as between
//      two views of one CPU, that is plain round-robin.
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
  double speed = 1.0;               // prior relative speed, used only before measurements
  bool explored = false;            // a task of this kernel was already sent there
};

struct Choice {
  std::size_t index = 0;  // into the candidates
  bool by_model = false;  // false: exploring or by the prior (round-robin among equals)
  bool explores = false;  // sent to be measured: the caller marks the candidate explored
  double start = 0.0;
  double finish = 0.0;  // estimated (execution counted as 0 when not measured)
};

double estimated_start(const Candidate& candidate);
double estimated_finish(const Candidate& candidate);

// `candidates` must not be empty.
Choice choose_device(const std::vector<Candidate>& candidates, std::size_t& round_robin);

}  // namespace plexus::heft
