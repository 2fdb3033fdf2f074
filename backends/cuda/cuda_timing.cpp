#include "cuda_timing.hpp"

#include <string>
#include <utility>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_queue.hpp"
#include "plexus/error.hpp"

namespace plexus::cuda {

using clock = std::chrono::steady_clock;

namespace {

constexpr int calibration_tries = 5;
constexpr auto recalibrate_after = std::chrono::seconds(1);

void destroy_events(CudaDevice& device, std::initializer_list<CUevent> events) noexcept {
  try {
    ScopedContext scope(device.driver(), device.context());
    for (CUevent event : events)
      if (event) device.driver().event_destroy(event);
  } catch (...) {
    // the context is gone: so are its events
  }
}

}  // namespace

struct CudaReference {
  CudaReference(CudaDevice& device, CUevent event, clock::time_point host)
      : device(device), event(event), host(host) {}
  ~CudaReference() { destroy_events(device, {event}); }
  CudaReference(const CudaReference&) = delete;
  CudaReference& operator=(const CudaReference&) = delete;

  CudaDevice& device;
  CUevent event;
  clock::time_point host;  // when the GPU stamped `event`
};

namespace {

class EventTiming final : public OperationTiming {
 public:
  EventTiming(std::shared_ptr<const CudaReference> reference, CUevent start, CUevent end,
              bool recorded)
      : reference_(std::move(reference)), start_(start), end_(end), recorded_(recorded) {}
  ~EventTiming() override { destroy_events(reference_->device, {start_, end_}); }

  std::optional<DeviceTimes> times() const override {
    if (!recorded_) return std::nullopt;
    const CudaReference& reference = *reference_;
    const CudaDriver& driver = reference.device.driver();
    float start_ms = 0, end_ms = 0;
    try {
      ScopedContext scope(driver, reference.device.context());
      if (driver.event_elapsed_time(&start_ms, reference.event, start_) != CUDA_SUCCESS ||
          driver.event_elapsed_time(&end_ms, reference.event, end_) != CUDA_SUCCESS)
        return std::nullopt;  // not recorded or not finished (a failed stream)
    } catch (const error&) {
      return std::nullopt;
    }
    auto at = [&](float ms) {
      return reference.host + std::chrono::duration_cast<clock::duration>(
                                  std::chrono::duration<double, std::milli>(ms));
    };
    return DeviceTimes{at(start_ms), at(end_ms)};
  }

 private:
  std::shared_ptr<const CudaReference> reference_;
  CUevent start_, end_;
  bool recorded_;
};

}  // namespace

CudaTiming::CudaTiming(CudaDevice& device) : device_(device) {
  const CudaDriver& driver = device.driver();
  if (!driver.event_elapsed_time)
    throw error(error_category::unsupported,
                "CUDA device '" + device.info().name + "': the driver lacks cuEventElapsedTime");
  ScopedContext scope(driver, device.context());
  driver.check("cuStreamCreate",
               driver.stream_create(&calibration_stream_, CU_STREAM_NON_BLOCKING));
  try {
    calibrate();
  } catch (...) {
    driver.stream_destroy(calibration_stream_);
    throw;
  }
}

CudaTiming::~CudaTiming() {
  destroy_events(device_, {start_, end_});
  try {
    ScopedContext scope(device_.driver(), device_.context());
    device_.driver().stream_destroy(calibration_stream_);
  } catch (...) {
    // the context is gone: so is the stream
  }
}

CUevent CudaTiming::new_event() {
  CUevent event = nullptr;
  device_.driver().check("cuEventCreate", device_.driver().event_create(&event, CU_EVENT_DEFAULT));
  return event;
}

void CudaTiming::calibrate() {
  const CudaDriver& driver = device_.driver();
  ScopedContext scope(driver, device_.context());
  CUevent best = nullptr;
  clock::time_point best_host{};
  auto best_bracket = clock::duration::max();
  for (int i = 0; i < calibration_tries; ++i) {
    CUevent event = new_event();
    const auto before = clock::now();
    CUresult result = driver.event_record(event, calibration_stream_);
    if (result == CUDA_SUCCESS) result = driver.event_synchronize(event);
    const auto after = clock::now();
    if (result != CUDA_SUCCESS || after - before >= best_bracket) {
      driver.event_destroy(event);
      if (result != CUDA_SUCCESS) {
        if (best) driver.event_destroy(best);
        driver.check("cuEventRecord/cuEventSynchronize (timing calibration)", result);
      }
      continue;
    }
    if (best) driver.event_destroy(best);
    best = event;
    best_bracket = after - before;
    best_host = before + best_bracket / 2;
  }
  reference_ = std::make_shared<const CudaReference>(device_, best, best_host);
}

void CudaTiming::before(CUstream stream) {
  if (start_) return;
  try {
    if (clock::now() - reference_->host > recalibrate_after) calibrate();
    const CudaDriver& driver = device_.driver();
    ScopedContext scope(driver, device_.context());
    start_ = new_event();
    end_ = new_event();
    recorded_ = driver.event_record(start_, stream) == CUDA_SUCCESS;
  } catch (const error&) {
    recorded_ = false;
  }
}

void CudaTiming::after(CUstream stream) {
  if (!end_) {
    recorded_ = false;
    return;
  }
  try {
    const CudaDriver& driver = device_.driver();
    ScopedContext scope(driver, device_.context());
    recorded_ = driver.event_record(end_, stream) == CUDA_SUCCESS && recorded_;
  } catch (const error&) {
    recorded_ = false;
  }
}

std::shared_ptr<const OperationTiming> CudaTiming::take() {
  if (!start_) {
    recorded_ = true;
    return nullptr;
  }
  auto timing = std::make_shared<EventTiming>(reference_, std::exchange(start_, nullptr),
                                              std::exchange(end_, nullptr), recorded_);
  recorded_ = true;
  return timing;
}

// CudaQueue's timing members live here, beside the rest of the timing.
bool CudaQueue::enable_timing() {
  if (timing_ || no_timing_) return !no_timing_;
  launcher_->drain();  // timed launches go from this thread, after those handed off
  try {
    timing_ = std::make_unique<CudaTiming>(device_);
  } catch (const error&) {
    no_timing_ = true;  // the caller keeps its host times
  }
  return !no_timing_;
}

std::shared_ptr<const OperationTiming> CudaQueue::take_timing() {
  return timing_ ? timing_->take() : nullptr;
}

}  // namespace plexus::cuda
