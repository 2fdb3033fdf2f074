#include "opencl_timing.hpp"

#include <utility>

#include "opencl_device.hpp"
#include "opencl_query.hpp"
#include "plexus/error.hpp"

namespace plexus::opencl {
namespace {

using clock = std::chrono::steady_clock;
constexpr int calibration_tries = 5;
constexpr auto recalibrate_after = std::chrono::seconds(1);

class EventTiming final : public OperationTiming {
 public:
  EventTiming(EventHandle first, EventHandle last, ClockPair pair)
      : first_(std::move(first)), last_(std::move(last)), pair_(pair) {}

  std::optional<DeviceTimes> times() const override {
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(first_.get(), CL_PROFILING_COMMAND_START, sizeof start, &start,
                                nullptr) != CL_SUCCESS ||
        clGetEventProfilingInfo(last_.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
            CL_SUCCESS)
      return std::nullopt;  // a failed command, or not finished
    return DeviceTimes{pair_.to_host(start), pair_.to_host(end)};
  }

 private:
  EventHandle first_, last_;
  ClockPair pair_;
};

cl_event retained(cl_event event) {
  clRetainEvent(event);
  return event;
}

}  // namespace

OpenclTiming::OpenclTiming(OpenclDevice& device) : device_(device) { pair_ = calibrate(); }

ClockPair OpenclTiming::calibrate() {
  ClockPair best;
  auto best_bracket = clock::duration::max();
  for (int i = 0; i < calibration_tries; ++i) {
    cl_ulong device_ns = 0, host_ns = 0;
    cl_event marker = nullptr;
    const auto before = clock::now();
    cl_int code = CL_INVALID_OPERATION;
    if (has_timer_) {
      code = clGetDeviceAndHostTimer(device_.handle(), &device_ns, &host_ns);
      if (code != CL_SUCCESS) has_timer_ = false;
    }
    if (!has_timer_) {
      if (!marker_queue_) {
        const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                                  0};
        cl_int created = CL_SUCCESS;
        marker_queue_.reset(clCreateCommandQueueWithProperties(device_.context(), device_.handle(),
                                                               properties, &created));
        if (created != CL_SUCCESS)
          throw error(error_category::device,
                      "OpenCL device '" + device_.info().name +
                          "': timing: creating a calibration queue failed: " + error_name(created));
      }
      code = clEnqueueMarkerWithWaitList(marker_queue_.get(), 0, nullptr, &marker);
    }
    const auto after = clock::now();
    if (marker) {
      EventHandle owned(marker);
      code = clWaitForEvents(1, &marker);
      if (code == CL_SUCCESS)
        code = clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_QUEUED, sizeof device_ns,
                                       &device_ns, nullptr);
    }
    if (code != CL_SUCCESS)
      throw error(error_category::device,
                  "OpenCL device '" + device_.info().name +
                      "': timing: neither clGetDeviceAndHostTimer nor a profiled marker gives a "
                      "device time: " +
                      error_name(code));
    if (after - before < best_bracket) {
      best_bracket = after - before;
      best = {before + (after - before) / 2, device_ns};
    }
  }
  return best;
}

void OpenclTiming::add(cl_event event) {
  if (!first_) first_.reset(retained(event));
  last_.reset(retained(event));
}

std::shared_ptr<const OperationTiming> OpenclTiming::take() {
  if (!first_) return nullptr;
  if (clock::now() - pair_.host > recalibrate_after) pair_ = calibrate();
  return std::make_shared<EventTiming>(std::move(first_), std::move(last_), pair_);
}

}  // namespace plexus::opencl
