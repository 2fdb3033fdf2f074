#include "ze_timing.hpp"

#include <optional>
#include <utility>

#include "plexus/error.hpp"
#include "ze_device.hpp"

namespace plexus::level_zero {
namespace {

using clock = std::chrono::steady_clock;
constexpr int calibration_tries = 5;
constexpr auto recalibrate_after = std::chrono::seconds(1);

class EventTiming final : public OperationTiming {
 public:
  EventTiming(const ZeDevice& device, std::shared_ptr<ZeEvent> first,
              std::shared_ptr<ZeEvent> last, ZeClockPair pair)
      : device_(device), first_(std::move(first)), last_(std::move(last)), pair_(pair) {}

  std::optional<DeviceTimes> times() const override {
    ze_kernel_timestamp_result_t first{}, last{};
    const ZeLoader& loader = device_.loader();
    if (loader.event_query_kernel_timestamp(first_->handle, &first) != ZE_RESULT_SUCCESS ||
        loader.event_query_kernel_timestamp(last_->handle, &last) != ZE_RESULT_SUCCESS)
      return std::nullopt;  // not finished, or failed
    return DeviceTimes{to_host(first.global.kernelStart), to_host(last.global.kernelEnd)};
  }

 private:
  clock::time_point to_host(std::uint64_t ticks) const {
    const ZeClock& timer = device_.clock();
    const std::uint32_t bits = timer.kernel_valid_bits == 0 || timer.kernel_valid_bits > 63
                                   ? 64
                                   : timer.kernel_valid_bits;
    const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    const std::uint64_t delta = (ticks - pair_.device_ticks) & mask;
    // The nearest value modulo 2^bits: above half the range is before the pair.
    const std::int64_t signed_delta =
        bits == 64 ? static_cast<std::int64_t>(delta)
        : delta > mask / 2 ? static_cast<std::int64_t>(delta) - static_cast<std::int64_t>(mask) - 1
                           : static_cast<std::int64_t>(delta);
    return pair_.host + std::chrono::nanoseconds(static_cast<std::int64_t>(
                            static_cast<double>(signed_delta) * timer.ns_per_tick));
  }

  const ZeDevice& device_;
  std::shared_ptr<ZeEvent> first_, last_;
  ZeClockPair pair_;
};

}  // namespace

ZeTiming::ZeTiming(const ZeDevice& device) : device_(device) { pair_ = calibrate(); }

ZeClockPair ZeTiming::calibrate() const {
  ZeClockPair best;
  auto best_bracket = clock::duration::max();
  for (int i = 0; i < calibration_tries; ++i) {
    std::uint64_t host_ns = 0, device_ticks = 0;
    const auto before = clock::now();
    const ze_result_t result =
        device_.loader().device_get_global_timestamps(device_.handle(), &host_ns, &device_ticks);
    const auto after = clock::now();
    if (result != ZE_RESULT_SUCCESS)
      device_.fail("timing: reading the device's clock", "zeDeviceGetGlobalTimestamps", result);
    if (after - before < best_bracket) {
      best_bracket = after - before;
      best = {before + (after - before) / 2, device_ticks};
    }
  }
  return best;
}

void ZeTiming::add(const std::shared_ptr<ZeEvent>& event) {
  if (!first_) first_ = event;
  last_ = event;
}

std::shared_ptr<const OperationTiming> ZeTiming::take() {
  if (!first_) return nullptr;
  if (clock::now() - pair_.host > recalibrate_after) pair_ = calibrate();
  auto timing = std::make_shared<EventTiming>(device_, std::move(first_), std::move(last_), pair_);
  first_.reset();
  last_.reset();
  return timing;
}

}  // namespace plexus::level_zero
