#include "timed_queue.hpp"

namespace plexus::heft {

TimedQueue::TimedQueue(DeviceQueue& inner, ComputeGate* gate) : inner_(inner), gate_(gate) {}

TimedQueue::~TimedQueue() {
  if (!holds_slot_) return;
  try {
    inner_.wait();  // a kernel still running keeps its slot until it is done
  } catch (...) {
    // the failure was (or will be) reported to the task by its own wait()
  }
  release_slot();
}

void TimedQueue::release_slot() {
  if (holds_slot_) gate_->release();
  holds_slot_ = false;
}

void TimedQueue::copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) {
  inner_.copy_to_device(allocation, host_base, layout);
}

void TimedQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  inner_.copy_to_host(host_base, allocation, layout);
}

bool TimedQueue::copy_from_device(void* allocation, Device& source, const void* source_allocation,
                                  const CopyLayout& layout) {
  return inner_.copy_from_device(allocation, source, source_allocation, layout);
}

void TimedQueue::begin_launch() {
  if (launching_ && (!gate_ || holds_slot_)) return;
  inner_.wait();  // the copies before the launch: they end the first phase
  if (gate_ && !holds_slot_) {
    gate_->acquire();
    holds_slot_ = true;
  }
  if (!launching_) launched_ = clock::now();
  launching_ = true;
}

void TimedQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                        std::span<const KernelArgument> arguments) {
  begin_launch();
  inner_.launch(kernel, range, arguments);
}

void TimedQueue::enqueue_native(const std::function<void(const NativeHandles&)>& work) {
  begin_launch();
  inner_.enqueue_native(work);
}

void TimedQueue::enqueue_native_call(const std::string& task, const NativeCall& call,
                                     std::span<void* const> allocations) {
  begin_launch();
  inner_.enqueue_native_call(task, call, allocations);
}

void TimedQueue::wait() {
  inner_.wait();
  if (launching_) {
    finished_ = clock::now();
    measured_ = true;
    release_slot();
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
