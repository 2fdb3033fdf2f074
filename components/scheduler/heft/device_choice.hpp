// The heft placement rule for one task, as a pure function over estimates (times in
// seconds on the scheduler's clock):
//   start  = max(ready, available)      ready: dependencies' estimated finish (or now);
//                                       available: when the device has done its queued work
//   finish = start + transfer + execution
// A candidate that wants a measurement (measurement_target) gets the task first (Choice::
// explores: the caller counts it in `explored`):
//   - one without a measurement that has not been sent this kernel yet, so that every
//     (kernel, device) pair is measured;
//   - with every candidate measured, one whose measurement is `provisional` (the pair's first
//     run only, which carries one-time costs: a module load, a library's handles and
//     workspace) and whose prior is more than 2x the prior of the candidate the model picks,
//     while it was sent fewer than 2 tasks to measure in this run: a GPU whose first run was
//     slow is measured again instead of leaving the kernel for good to a CPU 100x slower
//     (the CostModel keeps the second run). Comparable devices are not measured again.
// Otherwise, with a measured execution time on every candidate, the candidate with the
// earliest finish wins (the first of equals). While any candidate lacks one:
//      the task goes to the fastest candidate by the prior `speed` (a GPU is not
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
  bool provisional = false;         // execution is the pair's first run alone
  double speed = 1.0;               // prior relative speed
  unsigned explored = 0;            // tasks of this kernel sent there to measure, this run
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

// The candidate choose_device would send the task to, to measure it; nullopt: none.
std::optional<std::size_t> measurement_target(const std::vector<Candidate>& candidates);

// `candidates` must not be empty.
Choice choose_device(const std::vector<Candidate>& candidates, std::size_t& round_robin);

}  // namespace plexus::heft
