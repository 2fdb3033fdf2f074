// LaneLoad: scheduler/heft's model of the work placed on one device and not yet finished,
// per kernel slot (the device runs tasks_per_device kernels at once). A placed task goes to
// the slot that frees first (the least work pending); the device can start another task
// when that slot frees: available = now + earliest(). With one slot that is the sum of the
// device's pending work. Loads are seconds of work, not times: finish() takes back exactly
// what place() added, so the model follows tasks that end earlier or later than estimated.
// Thread-safety: none; the scheduler calls it under its mutex.
#pragma once

#include <cstddef>
#include <vector>

namespace plexus::heft {

class LaneLoad {
 public:
  explicit LaneLoad(std::size_t slots);  // at least 1 (0 counts as 1)

  std::size_t slots() const { return pending_.size(); }
  // Seconds of work before the first slot is free.
  double earliest() const;
  // Adds `seconds` to the slot that frees first (the first of equals); returns that slot.
  std::size_t place(double seconds);
  // The task placed on `slot` with `seconds` has finished (or failed).
  void finish(std::size_t slot, double seconds);

 private:
  std::vector<double> pending_;  // per slot
};

}  // namespace plexus::heft
