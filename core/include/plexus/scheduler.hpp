// Scheduler: owns the task graph; orders tasks, places them on devices and runs them
// through the backends it finds in its PluginContext.
//
// Thread-safety: submit() and wait_all() may be called from any number of threads.
// Contract: tasks run only after their dependencies are done; each task's event is
// completed or failed exactly once; wait_all() returns when every task submitted before
// the call is done. The destructor waits for outstanding tasks.
#pragma once

#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/task.hpp"

namespace plexus {

class PLEXUS_API Scheduler : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::scheduler;
  ~Scheduler() override;

  virtual void submit(Task task) = 0;
  virtual void wait_all() = 0;
};

}  // namespace plexus
