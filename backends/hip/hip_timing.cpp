#include "hip_timing.hpp"

#include <optional>

#include "hip_device.hpp"
#include "hip_device_scope.hpp"

namespace plexus::hip {
namespace {

using clock = std::chrono::steady_clock;
constexpr int calibration_tries = 5;
constexpr auto recalibrate_after = std::chrono::seconds(1);

class EventTiming final : public OperationTiming {
 public:
  EventTiming(std::shared_ptr<HipEvent> reference, clock::time_point reference_host,
              std::shared_ptr<HipEvent> start, std::shared_ptr<HipEvent> end)
      : reference_(std::move(reference)),
        reference_host_(reference_host),
        start_(std::move(start)),
        end_(std::move(end)) {}

  std::optional<DeviceTimes> times() const override {
    const HipRuntime& runtime = start_->device().runtime();
    float start_ms = 0, end_ms = 0;
    if (runtime.event_elapsed_time(&start_ms, reference_->handle(), start_->handle()) !=
            hipSuccess ||
        runtime.event_elapsed_time(&end_ms, reference_->handle(), end_->handle()) != hipSuccess)
      return std::nullopt;  // not finished, or failed
    const auto at = [&](float ms) {
      return reference_host_ +
             std::chrono::nanoseconds(static_cast<std::int64_t>(static_cast<double>(ms) * 1e6));
    };
    return DeviceTimes{at(start_ms), at(end_ms)};
  }

 private:
  std::shared_ptr<HipEvent> reference_;
  clock::time_point reference_host_;
  std::shared_ptr<HipEvent> start_, end_;
};

}  // namespace

HipTiming::HipTiming(const HipDevice& device, hipStream_t stream) : device_(device), stream_(stream) {
  const HipRuntime& runtime = device.runtime();
  ScopedDevice scope(runtime, device.ordinal());
  if (const hipError_t result =
          runtime.stream_create_with_flags(&calibration_stream_, hipStreamNonBlocking);
      result != hipSuccess)
    device.fail("timing: creating the calibration stream", "hipStreamCreateWithFlags", result);
  reference_ = calibrate();
}

HipTiming::~HipTiming() {
  try {
    ScopedDevice scope(device_.runtime(), device_.ordinal());
    (void)device_.runtime().stream_destroy(calibration_stream_);
  } catch (...) {
  }
}

HipTiming::Reference HipTiming::calibrate() {
  const HipRuntime& runtime = device_.runtime();
  Reference best;
  auto best_bracket = clock::duration::max();
  for (int i = 0; i < calibration_tries; ++i) {
    auto event = HipEvent::make(device_, hipEventDefault);
    const auto before = clock::now();
    hipError_t result = runtime.event_record(event->handle(), calibration_stream_);
    if (result == hipSuccess) result = runtime.event_synchronize(event->handle());
    const auto after = clock::now();
    if (result != hipSuccess) device_.fail("timing: calibrating", "hipEventRecord", result);
    if (after - before < best_bracket) {
      best_bracket = after - before;
      best = {std::move(event), before + (after - before) / 2};
    }
  }
  return best;
}

void HipTiming::before() {
  if (start_) return;
  start_ = HipEvent::make(device_, hipEventDefault);
  end_ = HipEvent::make(device_, hipEventDefault);
  if (const hipError_t result = device_.runtime().event_record(start_->handle(), stream_);
      result != hipSuccess)
    device_.fail("timing", "hipEventRecord", result);
}

void HipTiming::after() {
  if (!end_) return;
  if (const hipError_t result = device_.runtime().event_record(end_->handle(), stream_);
      result != hipSuccess)
    device_.fail("timing", "hipEventRecord", result);
}

std::shared_ptr<const OperationTiming> HipTiming::take() {
  if (!start_) return nullptr;
  if (clock::now() - reference_.host > recalibrate_after) {
    ScopedDevice scope(device_.runtime(), device_.ordinal());
    reference_ = calibrate();
  }
  auto timing = std::make_shared<EventTiming>(reference_.event, reference_.host, std::move(start_),
                                              std::move(end_));
  start_.reset();
  end_.reset();
  return timing;
}

}  // namespace plexus::hip
