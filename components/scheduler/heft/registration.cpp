#include "heft_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(scheduler, heft, plexus::heft::HeftScheduler, "0.1.0",
              "places each task on the device expected to finish it first, from measured "
              "kernel times and transfer costs (HEFT)")
