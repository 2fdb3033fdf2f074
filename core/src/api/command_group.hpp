// CommandGroup: what a Handler collects inside Queue::submit (internal to the core).
// Plain data owned by the Handler, then moved into a CommandBody.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "plexus/buffer_handle.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/kernel_bundle.hpp"
#include "plexus/nd_range.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class RuntimeState;

struct ArgumentSlot {
  enum class Kind { accessor, scalar, local, pointer } kind = Kind::scalar;
  std::vector<std::byte> value;  // scalar: its bytes
  std::size_t requirement = 0;   // accessor: index into CommandGroup::requirements
  std::size_t local_bytes = 0;   // local
  void* pointer = nullptr;       // pointer (USM style, from Buffer::device_pointer)
};

struct CommandGroup {
  std::weak_ptr<RuntimeState> runtime;
  Device* device = nullptr;  // the queue's device
  std::vector<Requirement> requirements;
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  std::optional<Kernel> kernel;
  NdRange range;
  std::vector<ArgumentSlot> arguments;
  std::function<void()> host_work;
  bool has_host_task = false;
};

}  // namespace plexus::detail
