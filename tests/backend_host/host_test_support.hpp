// Helpers for the host backend's tests: the host backend loaded through the core's plugin
// loader, OpenCL C compiled by the clang compiler component to llvm_bitcode and loaded on a
// host device, and launches that wait. Not thread-safe (test set-up), except launch_on.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "../compiler/compiler_test_support.hpp"
#include "backend_loader.hpp"
#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::test {

// The host backend with default options, loaded once per test program.
inline Device& host_device() {
  static const std::shared_ptr<Backend> backend = load_backend("host");
  REQUIRE(backend->device_count() >= 1);
  return backend->device(0);
}

// PoCL's device (the OpenCL backend's first), the reference device here, loaded once per
// test program; null, with a WARN saying why, when the OpenCL backend or PoCL is absent.
inline Device* pocl_device() {
  static std::shared_ptr<Backend> opencl;
  static bool tried = false;
  if (!tried) {
    tried = true;
    if (!std::filesystem::exists(plugin_file("backend", "opencl"))) {
      WARN("the OpenCL backend was not built: no PoCL reference device, comparison skipped");
      return nullptr;
    }
    opencl = load_backend("opencl");
    if (!opencl->status().available || opencl->device_count() == 0) {
      WARN("OpenCL (PoCL) is unavailable here, comparison skipped: " << opencl->status().reason);
      opencl.reset();
      return nullptr;
    }
  }
  return opencl ? &opencl->device(0) : nullptr;
}

inline CompileResult compile_for_host(const std::string& source,
                                      std::vector<std::string> options = {}) {
  const CompileResult result =
      clang_compiler().compile(request(source, BinaryFormat::llvm_bitcode, std::move(options)));
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::llvm_bitcode);
  return result;
}

// `source` compiled to host bitcode and loaded on `device`.
inline std::shared_ptr<DeviceModule> build(Device& device, const std::string& source,
                                           std::vector<std::string> options = {}) {
  const CompileResult result = compile_for_host(source, std::move(options));
  return device.load_module(BinaryFormat::llvm_bitcode, result.binary, result.kernels);
}

inline NdRange range1(std::size_t global, std::size_t local = 0, std::size_t offset = 0) {
  NdRange range;
  range.dimensions = 1;
  range.global = {global, 1, 1};
  range.local = {local, local ? 1u : 0u, local ? 1u : 0u};
  range.offset = {offset, 0, 0};
  return range;
}

inline NdRange range3(std::array<std::size_t, 3> global, std::array<std::size_t, 3> local,
                      std::array<std::size_t, 3> offset, std::size_t dimensions = 3) {
  NdRange range;
  range.dimensions = dimensions;
  range.global = global;
  range.local = local;
  range.offset = offset;
  return range;
}

// Launches `kernel` of `module` on a fresh queue of its device and waits.
inline void launch(const DeviceModule& module, const std::string& kernel, const NdRange& range,
                   const std::vector<KernelArgument>& arguments) {
  const auto queue = module.device().create_queue();
  queue->launch(module.kernel(kernel), range, arguments);
  queue->wait();
}

// Host memory of `count` T from the device (its allocations are host pointers).
template <class T>
class DeviceArray {
 public:
  DeviceArray(Device& device, std::size_t count, T fill = T{})
      : device_(device), count_(count), data_(static_cast<T*>(device.allocate(count * sizeof(T)))) {
    for (std::size_t i = 0; i < count; ++i) data_[i] = fill;
  }
  ~DeviceArray() { device_.deallocate(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* data() { return data_; }
  std::size_t size() const { return count_; }
  KernelArgument argument() { return KernelArgument::of_allocation(data_); }

 private:
  Device& device_;
  std::size_t count_;
  T* data_;
};

template <class T>
KernelArgument scalar(const T& value) {
  return KernelArgument::of_scalar(&value, sizeof value);
}

}  // namespace plexus::test
