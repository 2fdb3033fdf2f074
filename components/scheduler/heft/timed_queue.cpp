#include "timed_queue.hpp"

namespace plexus::heft {

TimedQueue::TimedQueue(DeviceQueue& inner) : inner_(inner) {}

void TimedQueue::copy_to_device(void* allocation, const void* host_base,
                                const CopyLayout& layout) {
  inner_.copy_to_device(allocation, host_base, layout);
}

void TimedQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  inner_.copy_to_host(host_base, allocation, layout);
}

void TimedQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                        std::span<const KernelArgument> arguments) {
  if (!launching_) {
    inner_.wait();  // the copies before the launch: they end the first phase
    launched_ = clock::now();
    launching_ = true;
  }
  inner_.launch(kernel, range, arguments);
}

void TimedQueue::wait() {
  inner_.wait();
  if (launching_) {
    finished_ = clock::now();
    measured_ = true;
  }
}

void TimedQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  inner_.on_complete(std::move(done));
}

double TimedQueue::copy_seconds() const {
  return std::chrono::duration<double>(launched_ - created_).count();
}

double TimedQueue::kernel_seconds() const {
  return std::chrono::duration<double>(finished_ - launched_).count();
}

}  // namespace plexus::heft
