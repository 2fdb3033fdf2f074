#include "inorder_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(scheduler, inorder, plexus::inorder::InorderScheduler, "0.1.0",
              "runs tasks one at a time, in submission order, on the submitting thread")
