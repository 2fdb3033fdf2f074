#include "minimal_scheduler.hpp"
#include "plexus/plugin.hpp"

extern "C" int plexus_test_needed_function();

namespace {
class NeedsLibraryScheduler : public plexus::test::MinimalScheduler {
 public:
  explicit NeedsLibraryScheduler(plexus::PluginContext& context) : MinimalScheduler(context) {
    answer_ = plexus_test_needed_function();
  }
  int answer_ = 0;
};
}  // namespace

PLEXUS_PLUGIN(scheduler, needs_library, NeedsLibraryScheduler, "1.0.0",
              "test: needs a library the loader cannot find")
