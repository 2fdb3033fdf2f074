#include "cuda_marker.hpp"

#include "cuda_context.hpp"
#include "cuda_device.hpp"

namespace plexus::cuda {

CudaMarker::CudaMarker(const CudaDevice& device, CUstream stream) : device_(device) {
  const CudaDriver& driver = device.driver();
  driver.check("cuEventCreate", driver.event_create(&event_, CU_EVENT_DISABLE_TIMING));
  const CUresult recorded = driver.event_record(event_, stream);
  if (recorded != CUDA_SUCCESS) {
    driver.event_destroy(event_);
    driver.check("cuEventRecord", recorded);
  }
}

CudaMarker::~CudaMarker() {
  try {
    ScopedContext scope(device_.driver(), device_.context());
    device_.driver().event_destroy(event_);
  } catch (...) {
    // the context is gone: so is its event
  }
}

}  // namespace plexus::cuda
