// The devices the device conformance suite runs on: every device of every built backend
// plugin (host, opencl, cuda, ...), loaded once per test program; only those named in
// PLEXUS_TEST_BACKENDS (comma-separated) when it is set (the mpi runs: remote devices only). A backend that is
// unavailable here, or a device whose backend does not implement device operations yet
// (plexus::error(unsupported) from create_queue/allocate), is reported by for_each_device
// with WARN and its reason, never silently. Not thread-safe (test set-up).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../compiler/compiler_test_support.hpp"
#include "backend_loader.hpp"
#include "plexus/backend.hpp"
#include "plexus/compiler.hpp"
#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::test {

struct DeviceUnderTest {
  std::string label;        // "opencl device 0 'pthread-...'"
  Device* device = nullptr; // nullptr: the whole backend is unavailable
  std::string skip_reason;  // non-empty: skipped, and why
};

inline std::string skip_reason_of(Device& device) {
  try {
    const auto queue = device.create_queue();
    void* allocation = device.allocate(16);
    device.deallocate(allocation);
  } catch (const error& e) {
    if (e.category() == error_category::unsupported) return e.what();
    throw;
  }
  return {};
}

inline std::vector<DeviceUnderTest>& devices_under_test() {
  static std::vector<std::shared_ptr<Backend>> backends;
  static std::vector<DeviceUnderTest> devices = [] {
    std::vector<DeviceUnderTest> found;
    const char* only = std::getenv("PLEXUS_TEST_BACKENDS");
    const std::string selected = only && *only ? "," + std::string(only) + "," : "";
    for (const std::string& name : built_backends()) {
      if (!selected.empty() && selected.find("," + name + ",") == std::string::npos) continue;
      auto backend = load_backend(name);
      const BackendStatus status = backend->status();
      if (!status.available) {
        found.push_back({name + " backend", nullptr, "unavailable here: " + status.reason});
        continue;
      }
      for (std::size_t i = 0; i < backend->device_count(); ++i) {
        Device& device = backend->device(i);
        found.push_back({name + " device " + std::to_string(i) + " '" + device.info().name + "'",
                         &device, skip_reason_of(device)});
      }
      backends.push_back(std::move(backend));
    }
    return found;
  }();
  return devices;
}

// Runs `test` on every device that implements device operations; reports the others.
inline void for_each_device(const std::function<void(Device&)>& test) {
  const auto& devices = devices_under_test();
  REQUIRE_FALSE(devices.empty());
  for (const DeviceUnderTest& each : devices) {
    if (!each.skip_reason.empty()) {
      WARN(each.label << ": skipped: " << each.skip_reason);
      SUCCEED();
      continue;
    }
    INFO("on " << each.label);
    test(*each.device);
  }
}

// The first of the device's formats the clang compiler produces (nothing: none).
inline std::optional<BinaryFormat> compilable_format(const Device& device) {
  const auto targets = clang_compiler().targets();
  for (BinaryFormat format : device.info().formats)
    if (std::find(targets.begin(), targets.end(), format) != targets.end()) return format;
  return std::nullopt;
}

// `source` compiled by the clang compiler component for the device and loaded on it; nullptr
// (reported with WARN) when the device loads no format the compiler produces, or when its
// backend does not load modules yet.
inline std::shared_ptr<DeviceModule> load_program(Device& device, const std::string& source) {
  const auto format = compilable_format(device);
  if (!format) {
    WARN(device.info().name << ": skipped: the clang compiler produces none of its formats");
    return nullptr;
  }
  CompileRequest compile = request(source, *format);
  const CompileResult result = clang_compiler().compile(compile);
  INFO(result.log);
  REQUIRE(result.succeeded);
  try {
    return device.load_module(result.format, result.binary, result.kernels);
  } catch (const error& e) {
    if (e.category() != error_category::unsupported) throw;
    WARN(device.info().name << ": skipped: " << e.what());
    return nullptr;
  }
}

// Device memory released when the owner dies.
class Allocation {
 public:
  Allocation(Device& device, std::size_t bytes) : device_(device), pointer_(device.allocate(bytes)) {}
  ~Allocation() { device_.deallocate(pointer_); }
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  void* get() const { return pointer_; }

 private:
  Device& device_;
  void* pointer_;
};

// A one-dimensional range of `global` work-items in groups of `local` (0: the device's choice).
inline NdRange range_1d(std::size_t global, std::size_t local = 0) {
  NdRange range;
  range.global = {global, 1, 1};
  range.local = {local, local ? 1u : 0u, local ? 1u : 0u};
  return range;
}

// `count` values of type T read back from `memory` (waits for the queue).
template <class T>
std::vector<T> download(DeviceQueue& queue, const Allocation& memory, std::size_t count) {
  std::vector<T> values(count);
  queue.copy_to_host(values.data(), memory.get(), CopyLayout::contiguous(0, count * sizeof(T)));
  queue.wait();
  return values;
}

}  // namespace plexus::test
