#include "opencl_graph.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "opencl_query.hpp"

namespace plexus::opencl {
namespace {

template <class Function>
bool entry(cl_platform_id platform, const char* name, Function& out) {
  out = reinterpret_cast<Function>(clGetExtensionFunctionAddressForPlatform(platform, name));
  return out != nullptr;
}

void append(std::vector<std::byte>& out, const void* data, std::size_t bytes) {
  const auto* first = static_cast<const std::byte*>(data);
  out.insert(out.end(), first, first + bytes);
}

bool same_range(const NdRange& a, const NdRange& b) {
  return a.dimensions == b.dimensions && a.global == b.global && a.local == b.local &&
         a.offset == b.offset;
}

}  // namespace

std::optional<CommandBufferApi> CommandBufferApi::load(cl_platform_id platform,
                                                       cl_device_id device,
                                                       std::string_view extensions) {
  if (const char* off = std::getenv("PLEXUS_OPENCL_COMMAND_BUFFERS"); off && std::string(off) == "0")
    return std::nullopt;
  if (!has_extension(extensions, "cl_khr_command_buffer")) return std::nullopt;
  CommandBufferApi api;
  if (!entry(platform, "clCreateCommandBufferKHR", api.create) ||
      !entry(platform, "clFinalizeCommandBufferKHR", api.finalize) ||
      !entry(platform, "clReleaseCommandBufferKHR", api.release) ||
      !entry(platform, "clEnqueueCommandBufferKHR", api.enqueue) ||
      !entry(platform, "clCommandNDRangeKernelKHR", api.ndrange))
    return std::nullopt;
  cl_device_command_buffer_capabilities_khr capabilities = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof capabilities,
                      &capabilities, nullptr) == CL_SUCCESS)
    api.simultaneous_use = (capabilities & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR) != 0;
  return api;
}

OpenclGraph::OpenclGraph(const CommandBufferApi& api, std::span<const GraphLaunch> launches)
    : api_(api) {
  launches_.reserve(launches.size());
  for (const GraphLaunch& launch : launches) launches_.push_back(describe(launch));
}

OpenclGraph::~OpenclGraph() {
  if (buffer_) api_.release(buffer_);
}

OpenclGraph::Launch OpenclGraph::describe(const GraphLaunch& launch) {
  Launch described{launch.kernel, launch.range, {}, {}};
  for (const KernelArgument& argument : launch.arguments) {
    const auto kind = static_cast<unsigned char>(argument.kind);
    const unsigned char usm = argument.usm ? 1 : 0;
    append(described.shape, &kind, 1);
    append(described.shape, &usm, 1);
    if (argument.kind == KernelArgumentKind::allocation) {
      append(described.values, &argument.allocation, sizeof argument.allocation);
    } else {
      append(described.shape, &argument.size, sizeof argument.size);
      if (argument.kind != KernelArgumentKind::local)
        append(described.values, argument.value, argument.size);
    }
  }
  return described;
}

bool OpenclGraph::same_shape(std::span<const GraphLaunch> launches) const {
  if (launches.size() != launches_.size()) return false;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const Launch now = describe(launches[i]);
    if (now.kernel != launches_[i].kernel || !same_range(now.range, launches_[i].range) ||
        now.shape != launches_[i].shape)
      return false;
  }
  return true;
}

bool OpenclGraph::same_values(std::span<const GraphLaunch> launches) const {
  for (std::size_t i = 0; i < launches.size(); ++i)
    if (describe(launches[i]).values != launches_[i].values) return false;
  return true;
}

void OpenclGraph::hold(cl_command_buffer_khr buffer, std::span<const GraphLaunch> launches) {
  if (buffer_) api_.release(buffer_);
  buffer_ = buffer;
  recorded_kernels_ = std::move(kernels_);  // the old ones go once their buffer has
  kernels_.clear();
  for (std::size_t i = 0; i < launches.size(); ++i) launches_[i] = describe(launches[i]);
  ++recordings_;
}

}  // namespace plexus::opencl
