// A backend with one device whose queues time their operations through the device, as a
// GPU's timing events belong to their device and context (CUDA's did: reading them after
// the device was destroyed crashed a traced program): its OperationTiming reads the
// device's clock when asked. Its memory is USM device memory that the queues copy with
// memcpy (the only operations it has). For the trace test: a traced runtime must read such
// timings before the runtime that owns the device (and, with it, this plugin, which nothing
// keeps loaded) goes.
#include <chrono>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#include "plexus/backend.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin.hpp"
#include "plexus/plugin_context.hpp"

namespace {

class TimedDevice final : public plexus::Device {
 public:
  explicit TimedDevice(plexus::Backend& backend) : backend_(backend) {
    info_.name = "timed test accelerator";
    info_.vendor = "plexus tests";
    info_.type = plexus::DeviceType::accelerator;
  }
  const plexus::DeviceInfo& info() const override { return info_; }
  plexus::Backend& backend() const override { return backend_; }
  bool supports_usm(plexus::UsmKind kind) const override {
    return kind == plexus::UsmKind::device;
  }
  void* allocate_usm(plexus::UsmKind, std::size_t bytes) override {
    return ::operator new(bytes);
  }
  void deallocate_usm(plexus::UsmKind, void* pointer) noexcept override {
    ::operator delete(pointer);
  }
  std::unique_ptr<plexus::DeviceQueue> create_queue() override;
  // The device's clock counts from the device's creation, as a GPU's from its own start:
  // its times are aligned to the host's clock through the device (what a GPU's events need).
  std::chrono::nanoseconds now() const { return std::chrono::steady_clock::now() - epoch_; }
  plexus::DeviceTimes aligned(std::chrono::nanoseconds start, std::chrono::nanoseconds end) const {
    return {epoch_ + start, epoch_ + end};
  }

 private:
  plexus::Backend& backend_;
  plexus::DeviceInfo info_;
  const std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

// The span of the operations between two take_timing(), aligned by the device when read.
class DeviceTiming final : public plexus::OperationTiming {
 public:
  DeviceTiming(const TimedDevice& device, std::chrono::nanoseconds start,
               std::chrono::nanoseconds end)
      : device_(device), start_(start), end_(end) {}
  std::optional<plexus::DeviceTimes> times() const override {
    return device_.aligned(start_, end_);
  }

 private:
  const TimedDevice& device_;  // must outlive this (device_queue.hpp: OperationTiming)
  std::chrono::nanoseconds start_, end_;  // on the device's clock
};

class TimedQueue final : public plexus::DeviceQueue {
 public:
  explicit TimedQueue(const TimedDevice& device) : device_(device) {}
  void copy_to_device(void* allocation, const void* host,
                      const plexus::CopyLayout& layout) override {
    copy(allocation, host, layout);
  }
  void copy_to_host(void* host, const void* allocation, const plexus::CopyLayout& layout) override {
    copy(host, allocation, layout);
  }
  void usm_copy(void* destination, const void* source, std::size_t bytes) override {
    timed([&] { std::memcpy(destination, source, bytes); });
  }
  void launch(const plexus::DeviceKernel&, const plexus::NdRange&,
              std::span<const plexus::KernelArgument>) override {
    throw plexus::error(plexus::error_category::unsupported,
                        "timed test accelerator: no kernels");
  }
  void wait() override {}
  void on_complete(std::function<void(std::exception_ptr)> done) override { done(nullptr); }
  bool enable_timing() override { return timing_ = true; }
  std::shared_ptr<const plexus::OperationTiming> take_timing() override {
    if (!timing_ || !span_start_) return nullptr;
    auto timing = std::make_shared<DeviceTiming>(device_, *span_start_, span_end_);
    span_start_.reset();
    return timing;
  }

 private:
  // The layout's bytes (contiguous: the trace test's copies are) from `from` to `to`.
  void copy(void* to, const void* from, const plexus::CopyLayout& layout) {
    timed([&] {
      std::memcpy(static_cast<char*>(to) + layout.offset,
                  static_cast<const char*>(from) + layout.offset, layout.bytes());
    });
  }
  template <class Work>
  void timed(Work&& work) {
    const auto start = device_.now();
    work();
    if (!timing_) return;
    if (!span_start_) span_start_ = start;
    span_end_ = device_.now();
  }

  const TimedDevice& device_;
  bool timing_ = false;
  std::optional<std::chrono::nanoseconds> span_start_;  // on the device's clock
  std::chrono::nanoseconds span_end_{};
};

std::unique_ptr<plexus::DeviceQueue> TimedDevice::create_queue() {
  return std::make_unique<TimedQueue>(*this);
}

class TimedBackend final : public plexus::Backend {
 public:
  explicit TimedBackend(plexus::PluginContext&) : device_(*this) {}
  plexus::BackendStatus status() const override { return {true, ""}; }
  std::size_t device_count() const override { return 1; }

 protected:
  plexus::Device& device_at(std::size_t) const override { return device_; }

 private:
  mutable TimedDevice device_;
};

}  // namespace

PLEXUS_PLUGIN(backend, timed, TimedBackend, "0.1.0",
              "test: one accelerator whose queues time their copies through the device")
