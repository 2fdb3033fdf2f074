// OpenclModule and OpenclKernel: a cl_program built for one device from device code of one
// format, and a cl_kernel per kernel the compiler reported.
//
// Formats: spirv (clCreateProgramWithIL), spir_bitcode (clCreateProgramWithBinary, built
// with "-x spir -spir-std=1.2": cl_khr_spir, PoCL), ptx (clCreateProgramWithBinary on
// NVIDIA's platform), opencl_c_source (clCreateProgramWithSource, built by the driver).
// A program the driver rejects is plexus::error(build) carrying the driver's build log.
//
// Ownership: a module keeps its program and kernels; it must not outlive its OpenclDevice.
// Thread-safety: immutable after construction, but for the arguments last set on the
// cl_kernel. clSetKernelArg is not thread-safe on one cl_kernel, so a queue sets arguments
// and enqueues under the kernel's launch_mutex(): the arguments are captured at enqueue, so
// the lock is held only while enqueueing. Under that lock, set_arguments() skips the
// clSetKernelArg of an argument whose value is the one set last (a kernel launched again
// and again with the same buffers sets nothing).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"
#include "plexus/binary_format.hpp"
#include "plexus/device_module.hpp"
#include "plexus/kernel_argument.hpp"

namespace plexus::opencl {

class OpenclDevice;

class OpenclKernel final : public DeviceKernel {
 public:
  // `max_work_group_size`: the driver's CL_KERNEL_WORK_GROUP_SIZE of `kernel`.
  OpenclKernel(KernelInfo info, KernelHandle kernel, const OpenclDevice& device,
               BinaryFormat format, const std::string& device_name,
               std::uint64_t max_work_group_size)
      : info_(std::move(info)), kernel_(std::move(kernel)), device_(device), format_(format),
        launch_what_(std::make_shared<const std::string>(
            "launch of '" + info_.name + "' on OpenCL device '" + device_name + "'")),
        max_work_group_size_(max_work_group_size) {}

  const KernelInfo& info() const override { return info_; }
  std::uint64_t max_work_group_size() const override { return max_work_group_size_; }
  cl_kernel handle() const { return kernel_.get(); }
  const OpenclDevice& device() const { return device_; }
  std::mutex& launch_mutex() const { return mutex_; }
  // The format the kernel's module was loaded from.
  BinaryFormat format() const { return format_; }
  // "launch of '<kernel>' on OpenCL device '<device>'", for error messages (built once).
  const std::shared_ptr<const std::string>& launch_what() const { return launch_what_; }
  // Under launch_mutex(): whether argument `index` must be set to `argument` on handle()
  // (its value differs from the one set last, or none was), recording it as set.
  bool argument_changed(std::size_t index, const KernelArgument& argument) const;
  // Under launch_mutex(): after a failed clSetKernelArg, every argument is set again.
  void forget_arguments() const;

 private:
  // An argument as last set on handle(): its kind and size, and its bytes (the cl_mem or
  // SVM pointer of an allocation, a scalar's value; none for local memory).
  struct SetArgument {
    KernelArgumentKind kind = KernelArgumentKind::scalar;
    bool usm = false;
    std::size_t size = 0;
    std::vector<std::byte> bytes;
  };

  KernelInfo info_;
  KernelHandle kernel_;
  const OpenclDevice& device_;
  BinaryFormat format_;
  std::shared_ptr<const std::string> launch_what_;
  std::uint64_t max_work_group_size_;
  mutable std::mutex mutex_;
  mutable std::vector<std::optional<SetArgument>> set_;  // by index; under mutex_
};

class OpenclModule final : public DeviceModule {
 public:
  // Creates and builds the program; throws plexus::error(build) with the build log,
  // plexus::error(device) for other driver failures, plexus::error(unsupported) for a
  // format OpenCL does not load.
  OpenclModule(OpenclDevice& device, BinaryFormat format, std::span<const std::byte> binary,
               const std::vector<KernelInfo>& kernels);
  ~OpenclModule() override;

  Device& device() const override;
  const std::vector<KernelInfo>& kernels() const override { return infos_; }
  const DeviceKernel& kernel(const std::string& name) const override;

 private:
  OpenclDevice& device_;
  ProgramHandle program_;
  std::vector<KernelInfo> infos_;
  std::vector<std::unique_ptr<OpenclKernel>> kernels_;
};

}  // namespace plexus::opencl
