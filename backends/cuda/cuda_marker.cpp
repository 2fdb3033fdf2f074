#include "cuda_marker.hpp"

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "plexus/cpu_pause.hpp"

namespace plexus::cuda {

CudaMarker::CudaMarker(const CudaDevice& device) : device_(device) {
  const CudaDriver& driver = device.driver();
  driver.check("cuEventCreate", driver.event_create(&event_, CU_EVENT_DISABLE_TIMING));
}

void CudaMarker::record(CUstream stream) {
  const CUresult result = device_.driver().event_record(event_, stream);
  state_.store(result == CUDA_SUCCESS ? recorded : failed, std::memory_order_release);
  device_.driver().check("cuEventRecord", result);
}

bool CudaMarker::record_from_launcher(CUstream stream) noexcept {
  const bool ok = device_.driver().event_record(event_, stream) == CUDA_SUCCESS;
  state_.store(ok ? recorded : failed, std::memory_order_release);
  return ok;
}

bool CudaMarker::wait_recorded() const {
  spin_until([this] { return state_.load(std::memory_order_acquire) != pending; });
  return state_.load(std::memory_order_acquire) == recorded;
}

CudaMarker::~CudaMarker() {
  wait_recorded();  // the launch thread may still hold the event for its record call
  try {
    ScopedContext scope(device_.driver(), device_.context());
    device_.driver().event_destroy(event_);
  } catch (...) {
    // the context is gone: so is its event
  }
}

}  // namespace plexus::cuda
