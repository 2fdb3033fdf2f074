#include "host_timing.hpp"

#include <utility>

namespace plexus::host {
namespace {

class FixedTiming final : public OperationTiming {
 public:
  explicit FixedTiming(DeviceTimes times) : times_(times) {}
  std::optional<DeviceTimes> times() const override { return times_; }

 private:
  DeviceTimes times_;
};

}  // namespace

std::shared_ptr<const OperationTiming> HostTiming::take() {
  if (!span_) return nullptr;
  return std::make_shared<FixedTiming>(*std::exchange(span_, std::nullopt));
}

}  // namespace plexus::host
