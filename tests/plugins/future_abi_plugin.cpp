#include "minimal_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN_WITH_ABI(6, scheduler, future_abi, plexus::test::MinimalScheduler, "9.0.0",
                       "test: claims plugin ABI 6")
