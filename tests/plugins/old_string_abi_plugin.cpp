// Compiled with _GLIBCXX_USE_CXX11_ABI=0, so its std::string is not the core's.
#include "minimal_scheduler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(scheduler, old_string_abi, plexus::test::MinimalScheduler, "1.0.0",
              "test: built with the old libstdc++ string ABI")
