#include "minimal_scheduler.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin.hpp"

namespace {
class ThrowingScheduler : public plexus::test::MinimalScheduler {
 public:
  explicit ThrowingScheduler(plexus::PluginContext& context) : MinimalScheduler(context) {
    throw plexus::error(plexus::error_category::device, "the test device is on fire");
  }
};
}  // namespace

PLEXUS_PLUGIN(scheduler, throws, ThrowingScheduler, "1.0.0", "test: its factory throws")
