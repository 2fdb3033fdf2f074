// The plugin's one entry symbol. Keep the kind; rename "my_scheduler" (it must match NAME in
// CMakeLists.txt), the class, and set your version and a one-line description.
#include "my_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(scheduler, my_scheduler, my_scheduler::MyScheduler, "0.1.0",
              "skeleton scheduler: fill in a one-line description")
