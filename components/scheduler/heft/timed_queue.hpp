// TimedQueue: a DeviceQueue that forwards every operation to another queue of the same
// device and measures one task's run for scheduler/heft: the time from its creation to the
// first launch (allocations and copies in) and from that launch to the wait() after it
// (the kernel; a native task's enqueue_native or enqueue_native_call counts as its launch).
// Before forwarding a launch it waits for what was enqueued before it, so the two phases do
// not overlap (the inner queue is in-order: this costs one synchronisation),
// then takes a slot of the device's ComputeGate (when given), held until that wait() (or
// the destructor): copies of one task overlap with another task's kernel, kernels do not
// exceed the gate's slots, and the kernel time excludes the wait for a slot. Device timing
// (enable_timing, take_timing) is the inner queue's.
//
// Thread-safety: as DeviceQueue (one thread at a time). Ownership: does not own `inner` or
// `gate`, which must outlive it.
#pragma once

#include <chrono>

#include "compute_gate.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::heft {

class TimedQueue final : public DeviceQueue {
 public:
  explicit TimedQueue(DeviceQueue& inner, ComputeGate* gate = nullptr);
  ~TimedQueue() override;

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                        const CopyLayout& layout) override;
  // USM copies and fills count with the copies (before the first launch).
  void usm_copy(void* destination, const void* source, std::size_t bytes) override {
    inner_.usm_copy(destination, source, bytes);
  }
  bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                std::size_t bytes) override {
    return inner_.usm_fill(destination, pattern, pattern_size, bytes);
  }
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  // Timed as a launch: the native work is the task's kernel phase.
  void enqueue_native(const std::function<void(const NativeHandles&)>& work) override;
  NativeHandles native_handles() override { return inner_.native_handles(); }
  // A native function forwarded to another process: timed as a launch too.
  void enqueue_native_call(const std::string& task, const NativeCall& call,
                           std::span<void* const> allocations) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;
  bool orders_by_markers() const override { return inner_.orders_by_markers(); }
  std::shared_ptr<const QueueMarker> mark() override { return inner_.mark(); }
  std::shared_ptr<const QueueMarker> mark_from_any_thread() override {
    return inner_.mark_from_any_thread();
  }
  bool wait_for(const QueueMarker& marker) override { return inner_.wait_for(marker); }
  bool enable_timing() override { return inner_.enable_timing(); }
  std::shared_ptr<const OperationTiming> take_timing() override { return inner_.take_timing(); }

  // True once a launch and a wait() after it completed without a failure.
  bool measured() const { return measured_; }
  double copy_seconds() const;    // creation -> first launch
  double kernel_seconds() const;  // first launch -> last successful wait()

 private:
  using clock = std::chrono::steady_clock;
  void release_slot();
  // Before a launch or native work: waits for the copies and takes a slot (first time).
  void begin_launch();

  DeviceQueue& inner_;
  ComputeGate* gate_;
  bool holds_slot_ = false;
  clock::time_point created_ = clock::now();
  clock::time_point launched_{};
  clock::time_point finished_{};
  bool launching_ = false;
  bool measured_ = false;
};

}  // namespace plexus::heft
