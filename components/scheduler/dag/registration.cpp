#include "dag_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(scheduler, dag, plexus::dag::DagScheduler, "0.1.0",
              "dispatches every ready task at once to a pool of worker threads")
