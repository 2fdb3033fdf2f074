#include "cuda_completions.hpp"

#include <memory>
#include <string>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "plexus/error.hpp"

namespace plexus::cuda {

CUevent CudaCompletions::take_event() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      CUevent event = free_.back();
      free_.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  const CUresult result = device_.driver().event_create(&event, CU_EVENT_DISABLE_TIMING);
  if (result != CUDA_SUCCESS)
    throw error(error_category::device, "CUDA device '" + device_.info().name + "': " +
                                            device_.driver().describe_failure("cuEventCreate", result));
  return event;
}

void CudaCompletions::add(CUstream stream, std::function<void(std::exception_ptr)> done) {
  const CudaDriver& driver = device_.driver();
  ScopedContext scope(driver, device_.context());
  CUevent event = take_event();
  const CUresult result = driver.event_record(event, stream);
  std::lock_guard lock(mutex_);
  if (result != CUDA_SUCCESS) {
    free_.push_back(event);
    throw error(error_category::device, "CUDA device '" + device_.info().name + "': " +
                                            driver.describe_failure("cuEventRecord", result));
  }
  pending_.push_back({event, std::move(done)});
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  wake_.notify_one();
}

void CudaCompletions::run() {
  const CudaDriver& driver = device_.driver();
  std::unique_ptr<ScopedContext> scope;  // current for the thread's life
  std::exception_ptr no_context;
  try {
    scope = std::make_unique<ScopedContext>(driver, device_.context());
  } catch (...) {
    no_context = std::current_exception();
  }
  for (;;) {
    Pending next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping, nothing left
      next = std::move(pending_.front());
      pending_.pop_front();
    }
    std::exception_ptr failure = no_context;
    const CUresult result = no_context ? CUDA_SUCCESS : driver.event_synchronize(next.event);
    if (result != CUDA_SUCCESS)
      failure = std::make_exception_ptr(
          error(error_category::device,
                "CUDA device '" + device_.info().name +
                    "': " + driver.describe_failure("an operation of the stream", result)));
    {
      std::lock_guard lock(mutex_);
      free_.push_back(next.event);
    }
    next.done(failure);
  }
}

void CudaCompletions::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  if (free_.empty()) return;
  try {
    ScopedContext scope(device_.driver(), device_.context());
    for (CUevent event : free_) device_.driver().event_destroy(event);
  } catch (...) {
    // the context could not be made current: nothing more to release
  }
  free_.clear();
}

}  // namespace plexus::cuda
