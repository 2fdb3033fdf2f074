// AutoGraph: automatic replay (issue 16 item 3) on one in-order queue: recognises a period
// of kernel submissions that repeats, and then has the queue hold the next submissions of a
// unit (the period, repeated up to at least `batch` kernels) and replay them as one graph.
// Internal to the core (auto_replay.cpp drives it).
//
// Two kernel submissions match when they launch the same kernel over the same nd-range with
// the same arguments but for the scalars' values: the same buffers, access ranges and modes
// at the same argument positions, the same local sizes and USM pointers. A period is found
// when the last `repeats` x P submissions repeat with period P (the smallest P up to
// `max_period`), found through 64-bit hashes of the submissions (a collision only makes the
// queue hold kernels that the full comparison then refuses: they are released as usual).
//
// next() is told each command group submitted to the queue: a kernel without explicit
// dependencies (`group`), or anything else (nullptr: a host task, a barrier, a native task,
// a kernel with depends_on). While holding, a group that is not the unit's next one ends the
// pattern: submit (the caller first releases what it holds, in order, as plain submissions).
// Thread-safety: none (the caller holds the queue's submit_mutex).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "command_group.hpp"
#include "plexus/config.hpp"

namespace plexus::detail {

class AutoGraph {
 public:
  enum class Step {
    submit,  // submit the group as usual
    hold,    // hold it: part of the unit
    replay,  // hold it: the unit is complete, replay what is held
  };

  explicit AutoGraph(const AutoGraphOptions& settings);  // plexus/config.hpp, [graphs]

  Step next(const CommandGroup* group);
  bool holding() const { return unit_ != 0; }
  std::size_t position() const { return position_; }  // of the unit's next kernel
  std::size_t unit_length() const { return unit_; }     // kernels per unit (0: not holding)
  // The pattern ended outside next() (the held kernels were released: a wait, a host access,
  // another queue's conflicting command): start over.
  void reset();
  // Held units replayed since construction (tests and logs).
  std::size_t units() const { return units_; }
  // Changes whenever a new pattern is held (keys its device graphs).
  std::uint64_t pattern() const { return pattern_; }

 private:
  struct Requirement {
    const void* storage;
    AccessRange range;
    AccessMode mode;
  };
  struct Argument {
    ArgumentSlot::Kind kind;
    std::size_t value;  // requirement index, local bytes, pointer bits, scalar size
  };
  struct Signature {
    const void* kernel = nullptr;  // the kernel's KernelInfo
    NdRange range;
    boost::container::small_vector<Requirement, 2> requirements;
    boost::container::small_vector<Argument, 4> arguments;
    std::uint64_t hash = 0;
    bool operator==(const Signature& other) const;
  };
  static Signature signature(const CommandGroup& group);

  AutoGraphOptions settings_;
  std::vector<Signature> recent_;      // ring of the last max_period signatures
  std::size_t seen_ = 0;               // signatures pushed since the last reset
  std::vector<std::size_t> matching_;  // by period P: how many recent ones equal the one P before
  std::vector<Signature> unit_pattern_;  // while holding: the unit's signatures
  std::size_t unit_ = 0;                 // while holding: its length (0: not holding)
  std::size_t position_ = 0;             // the next one expected
  std::size_t units_ = 0;
  std::uint64_t pattern_ = 0;
};

}  // namespace plexus::detail
