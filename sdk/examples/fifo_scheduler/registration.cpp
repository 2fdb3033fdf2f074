// The plugin's one entry symbol: plexus_plugin_abi<N>__scheduler__fifo.
#include "fifo_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(scheduler, fifo, fifo_example::FifoScheduler, "0.1.0",
              "runs tasks one at a time, in submission order, on one worker thread")
