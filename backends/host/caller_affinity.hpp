// CallerAffinity: while it lives, the calling thread runs only on a host device's share of
// the cores ([backends.host] devices > 1 gives each device its own cores), and afterwards on
// the cores it was allowed before. The work a host device runs on the thread that submits it
// (a native task's implementation, the calling thread's part of a kernel launch) then stays
// on that device's cores like its pool's threads, so that two host devices are two disjoint
// sets of cores: a scheduler's worker threads are not pinned, and native tasks on a device of
// 8 cores of 16 used all 16.
//
// An empty set (one device: not pinned) does nothing; so does a system that refuses the
// change (a container may): the work then runs where the thread may run (best effort, as
// the pool's pinning). Thread-safety: one object per thread, on that thread's stack.
#pragma once

#include <sched.h>

#include <vector>

namespace plexus::host {

class CallerAffinity {
 public:
  explicit CallerAffinity(const std::vector<int>& cpus);
  ~CallerAffinity();
  CallerAffinity(const CallerAffinity&) = delete;
  CallerAffinity& operator=(const CallerAffinity&) = delete;

 private:
  bool pinned_ = false;
  cpu_set_t previous_{};
};

}  // namespace plexus::host
