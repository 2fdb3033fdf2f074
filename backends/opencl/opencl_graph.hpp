// OpenclGraph: the OpenCL backend's device graph (plexus/device_graph.hpp) over a
// cl_khr_command_buffer command buffer, where the device's platform offers the extension
// (PoCL 3.1 does, at version 0.9.0, without cl_khr_command_buffer_mutable_dispatch).
//
// record_graph records the launches into a command buffer of the queue's cl_command_queue,
// each behind the one before (sync points), and finalizes it; launch_graph enqueues it as
// one command. A command buffer keeps the argument values it was recorded with, and without
// mutable dispatch they cannot be changed: a replay whose scalars or allocations differ
// from the recorded ones records the buffer again with them (one recording per change, then
// replays as long as they stay). A replay whose kernels, ranges or argument kinds and sizes
// differ from the recorded ones is plexus::error(invalid_argument).
//
// CommandBufferApi: the extension's entry points, from clGetExtensionFunctionAddressForPlatform.
// Thread-safety and ownership: see device_graph.hpp (one queue's thread). Releasing the
// command buffer while a replay runs is allowed: the driver frees it once the replay is done.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"
#include "plexus/device_graph.hpp"

namespace plexus::opencl {

struct CommandBufferApi {
  clCreateCommandBufferKHR_fn create = nullptr;
  clFinalizeCommandBufferKHR_fn finalize = nullptr;
  clReleaseCommandBufferKHR_fn release = nullptr;
  clEnqueueCommandBufferKHR_fn enqueue = nullptr;
  clCommandNDRangeKernelKHR_fn ndrange = nullptr;
  // CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR: a command buffer may be enqueued
  // again while a replay of it is pending (recorded with the flag); without it the queue
  // finishes the pending replay first.
  bool simultaneous_use = false;

  // The entry points when the device's `extensions` name cl_khr_command_buffer and the
  // platform gives them all; nullopt otherwise (or when PLEXUS_OPENCL_COMMAND_BUFFERS=0).
  static std::optional<CommandBufferApi> load(cl_platform_id platform, cl_device_id device,
                                              std::string_view extensions);
};

class OpenclGraph final : public DeviceGraph {
 public:
  OpenclGraph(const CommandBufferApi& api, std::span<const GraphLaunch> launches);
  ~OpenclGraph() override;

  // Whether `launches` are the recorded kernels, ranges and argument kinds and sizes.
  bool same_shape(std::span<const GraphLaunch> launches) const;
  // Whether their argument values are the ones the command buffer holds.
  bool same_values(std::span<const GraphLaunch> launches) const;
  // Replaces the command buffer (released) and the values it holds.
  void hold(cl_command_buffer_khr buffer, std::span<const GraphLaunch> launches);
  cl_command_buffer_khr buffer() const { return buffer_; }
  // Keeps (and releases at the next recording or at the end) a node's kernel object.
  void keep(cl_kernel kernel) { kernels_.emplace_back(kernel); }
  std::size_t recordings() const { return recordings_; }

 private:
  struct Launch {
    const DeviceKernel* kernel;
    NdRange range;
    std::vector<std::byte> shape, values;  // argument kinds and sizes; their values
  };
  static Launch describe(const GraphLaunch& launch);

  const CommandBufferApi& api_;
  std::vector<Launch> launches_;
  cl_command_buffer_khr buffer_ = nullptr;
  std::vector<KernelHandle> kernels_, recorded_kernels_;  // being recorded; the buffer's
  std::size_t recordings_ = 0;
};

}  // namespace plexus::opencl
