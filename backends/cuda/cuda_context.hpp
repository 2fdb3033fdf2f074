// ScopedContext: makes a CUDA context current on the calling thread for one scope
// (cuCtxPushCurrent / cuCtxPopCurrent), so that the backend never leaves its context on an
// application thread. Not copyable; use on one thread. Throws plexus::error(device) when the
// push fails; the pop in the destructor ignores failures.
#pragma once

#include <cuda.h>

#include "cuda_driver.hpp"

namespace plexus::cuda {

class ScopedContext {
 public:
  ScopedContext(const CudaDriver& driver, CUcontext context) : driver_(driver) {
    driver_.check("cuCtxPushCurrent", driver_.ctx_push_current(context));
  }
  ~ScopedContext() {
    CUcontext popped = nullptr;
    driver_.ctx_pop_current(&popped);
  }
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

 private:
  const CudaDriver& driver_;
};

}  // namespace plexus::cuda
