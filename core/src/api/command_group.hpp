// CommandGroup: what a Handler collects inside Queue::submit (internal to the core).
// Plain data owned by the Handler, then taken over by a CommandBody. The usual few
// requirements, arguments and scalar bytes are stored in place (small_vector): a submit
// allocates none for them. Kept under 1 KiB (with flags packed beside each other, and the
// rare fill patterns out of place), so that its allocation at every submission is one of
// malloc's cached sizes: a larger one took ~600 instructions more per submit (callgrind).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "plexus/buffer_handle.hpp"
#include "plexus/interop.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/kernel_bundle.hpp"
#include "plexus/nd_range.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class RuntimeState;
class ParameterValue;
class DeviceGraphKey;

struct ArgumentSlot {
  enum class Kind { accessor, scalar, local, pointer } kind = Kind::scalar;
  bool usm = false;  // pointer: a USM address (KernelArgument::of_usm)
  boost::container::small_vector<std::byte, 16> value;  // scalar: its bytes
  std::size_t requirement = 0;   // accessor: index into CommandGroup::requirements
  std::size_t local_bytes = 0;   // local
  void* pointer = nullptr;       // pointer: USM, or from Buffer::device_pointer
  // pointer: its place in the allocation holding it (checked kernels bound accesses by it)
  std::size_t pointer_offset = 0;  // bytes from the allocation's start
  std::size_t pointer_bytes = 0;   // the allocation's size
  // scalar from a GraphParameter: `value` is its value when submitted (refresh_parameters)
  std::shared_ptr<ParameterValue> parameter;
};

using ArgumentSlots = boost::container::small_vector<ArgumentSlot, 4>;

// Re-reads the slots' graph parameters into their values (a replay's snapshot).
void refresh_parameters(ArgumentSlots& slots);

// A replayed command graph's kernels, all on the group's device (graph_replay.hpp):
// accessor slots index the group's requirements (one per buffer for the whole graph).
struct GraphKernel {
  Kernel kernel;
  NdRange range;
  ArgumentSlots arguments;
};
struct GraphKernels {
  std::vector<GraphKernel> kernels;
  // Keys the device graphs recorded for these kernels (RuntimeState::device_graphs) and
  // keeps their owner alive while a replay runs.
  std::shared_ptr<const DeviceGraphKey> owner;
};

// A USM command (Handler::memcpy, memset, fill, copy) that runs on the group's device.
// Copies between memory the host reaches run as host work instead.
struct UsmOperation {
  enum class Kind { none, copy, fill } kind = Kind::none;
  bool to_host = false;  // copy: device memory into memory the host reaches (for traces)
  void* destination = nullptr;
  const void* source = nullptr;  // copy
  std::size_t bytes = 0;
  std::vector<std::byte> pattern;  // fill: one element's bytes
};

// A buffer command that can run on a device without host memory (Handler::copy between
// two accessors, Handler::fill): by requirement index; `buffer_work` is its host form.
struct BufferOnDevice {
  enum class Kind { none, copy, fill } kind = Kind::none;
  std::size_t source = 0;       // copy: the source accessor's requirement
  std::size_t destination = 0;  // the accessor written
  std::vector<std::byte> pattern;  // fill: one element's bytes
};

struct CommandGroup {
  std::weak_ptr<RuntimeState> runtime;
  Device* device = nullptr;  // the queue's device (native tasks: the one chosen for them)
  bool device_bound = true;  // the queue was made for its device (Runtime::queue(device))
  bool has_host_task = false;
  boost::container::small_vector<Requirement, 2> requirements;
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  std::optional<Kernel> kernel;
  NdRange range;
  ArgumentSlots arguments;
  std::function<void()> host_work;
  // A buffer command's work (Handler::copy, fill on accessors): given the group's
  // requirements when it runs, so that a graph's rebound buffers are the ones it uses.
  std::function<void(std::span<const Requirement>)> buffer_work;
  // The same command for a device (run there when the group's device has memory of its own).
  BufferOnDevice buffer_on_device;
  std::string native_name;  // a native task: its name (non-empty) and implementations
  std::vector<NativeImplementation> natives;
  std::shared_ptr<const GraphKernels> graph;  // a replayed graph: its kernels, in order
  UsmOperation usm;
  // The command's name (tasks, traces) for commands that are not kernels, host tasks or
  // native tasks: "memcpy", "fill", "copy", "update_host"; nullptr otherwise.
  const char* command = nullptr;

  bool has_command() const {
    return kernel || has_host_task || !natives.empty() || usm.kind != UsmOperation::Kind::none;
  }
};

#if defined(__GLIBC__) && UINTPTR_MAX == 0xffffffffffffffffu
// glibc's malloc caches (tcache) blocks of up to 1032 bytes: see the comment at the top.
static_assert(sizeof(CommandGroup) <= 1024, "CommandGroup outgrew malloc's cached sizes");
#endif

// The command's name in tasks, errors and traces: "kernel k", "native task n", "host task",
// "barrier", or the command's own ("memcpy", "fill", ...).
inline std::string command_name(const CommandGroup& group) {
  return group.command          ? std::string(group.command)
         : group.kernel         ? "kernel " + group.kernel->name()
         : !group.natives.empty() ? "native task " + group.native_name
         : group.has_host_task  ? std::string("host task")
                                : std::string("barrier");
}

}  // namespace plexus::detail
