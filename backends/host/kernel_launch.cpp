#include "kernel_launch.hpp"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "device_library/work_item_state.h"
#include "fiber_group.hpp"
#include "host_device.hpp"
#include "host_module.hpp"
#include "local_memory.hpp"
#include "plexus/error.hpp"
#include "plexus/task_execution.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::host {

namespace {

std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// The largest divisor of `n` that is at most `limit`.
std::size_t divisor_at_most(std::size_t n, std::size_t limit) {
  for (std::size_t d = std::min(n, std::max<std::size_t>(limit, 1)); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

// Storage aligned for any OpenCL type (a double16 is 128 bytes).
struct alignas(128) Chunk {
  std::byte bytes[128];
};

// The arguments as the JIT entry reads them: one slot per parameter pointing at its value
// (a copy of the scalar, the allocation's address, or the __local argument's offset).
struct ArgumentBlock {
  std::vector<void*> slots;
  std::vector<std::vector<Chunk>> values;
  std::size_t local_bytes = 0;  // the whole local block: variables, then arguments

  ArgumentBlock(std::span<const KernelArgument> arguments, std::size_t static_local_bytes)
      : local_bytes(static_local_bytes) {
    for (const KernelArgument& argument : arguments) {
      const std::size_t size =
          argument.kind == KernelArgumentKind::scalar ? argument.size : sizeof(std::uint64_t);
      std::byte* value =
          values.emplace_back(round_up(size, sizeof(Chunk)) / sizeof(Chunk)).front().bytes;
      switch (argument.kind) {
        case KernelArgumentKind::scalar:
          std::memcpy(value, argument.value, argument.size);
          break;
        case KernelArgumentKind::allocation:
          std::memcpy(value, &argument.allocation, sizeof(void*));
          break;
        case KernelArgumentKind::local: {
          const std::uint64_t offset = local_bytes;
          std::memcpy(value, &offset, sizeof offset);
          local_bytes = round_up(local_bytes + argument.size, local_block_alignment);
          break;
        }
      }
      slots.push_back(value);
    }
  }
};

// Per-thread scratch of one launch: the local block and the fibers.
struct Scratch {
  std::vector<Chunk> local;
  std::unique_ptr<FiberGroup> fibers;
};

}  // namespace

NdRange with_local_size(const NdRange& range, bool uses_barriers, std::size_t max_group) {
  NdRange chosen = range;
  if (range.has_local_size()) return chosen;
  chosen.local = {1, 1, 1};
  if (uses_barriers) {
    std::size_t left = std::min<std::size_t>(256, max_group);
    for (std::size_t d = 0; d < range.dimensions; ++d) {
      chosen.local[d] =
          divisor_at_most(range.global[d], d == 0 ? std::min<std::size_t>(64, left) : left);
      left /= chosen.local[d];
    }
  } else {
    // One loop nest per work-group: up to 1024 work-items, dimension 0 first (the inner,
    // vectorised loop), then dimension 1 when dimension 0 is short.
    const std::size_t limit = std::min<std::size_t>(max_group, 1024);
    chosen.local[0] = divisor_at_most(range.global[0], limit);
    if (range.dimensions > 1 && chosen.local[0] < 64)
      chosen.local[1] = divisor_at_most(range.global[1], limit / chosen.local[0]);
  }
  return chosen;
}

void run_kernel(HostDevice& device, const HostKernel& kernel, const NdRange& requested,
                std::span<const KernelArgument> arguments) {
  const KernelInfo& info = kernel.info();
  // Names the launch in errors only: a valid launch builds no string.
  auto what = [&] { return "launch of '" + info.name + "' on '" + device.info().name + "'"; };
  NdRange range = requested;
  const auto& required = info.required_work_group_size;
  if (!range.has_local_size() && required[0] != 0)
    for (std::size_t d = 0; d < 3; ++d) range.local[d] = d < range.dimensions ? required[d] : 0;
  validate_launch(info, range, arguments, what);
  range = with_local_size(range, kernel.uses_barriers(), device.info().max_work_group_size);
  const std::size_t group_size = range.local[0] * range.local[1] * range.local[2];
  if (group_size > device.info().max_work_group_size)
    throw error(error_category::invalid_argument,
                what() + ": the work-group size " + std::to_string(group_size) +
                    " exceeds the device's maximum of " +
                    std::to_string(device.info().max_work_group_size));

  ArgumentBlock block(arguments, kernel.static_local_bytes());
  if (block.local_bytes > device.info().local_memory_bytes)
    throw error(error_category::invalid_argument,
                what() + ": the work-group needs " + std::to_string(block.local_bytes) +
                    " bytes of local memory, more than the device's " +
                    std::to_string(device.info().local_memory_bytes));

  plexus_work_item_state shape{};
  shape.work_dim = range.dimensions;
  std::size_t groups = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    shape.global_size[d] = range.global[d];
    shape.local_size[d] = range.local[d];
    shape.num_groups[d] = range.global[d] / range.local[d];
    shape.global_offset[d] = d < range.dimensions ? range.offset[d] : 0;
    groups *= shape.num_groups[d];
  }
  ThreadPool& pool = device.pool();
  std::vector<Scratch> scratch(pool.participants());
  void** slots = block.slots.data();
  // Cooperative cancel (TaskEvent::cancel) at work-group granularity: the groups not yet
  // started when it is asked do not run, and the launch fails with error(cancelled).
  const TaskEvent* task = current_task();
  pool.parallel_for(groups, [&](std::size_t group, std::size_t slot) {
    if (task && task->cancel_requested()) {
      throw error(error_category::cancelled,
                  what() + ": cancelled; the work-groups not started by then did not run");
    }
    Scratch& mine = scratch[slot];
    if (block.local_bytes > 0 && mine.local.empty())
      mine.local.resize(round_up(block.local_bytes, sizeof(Chunk)) / sizeof(Chunk));
    plexus_work_item_state state = shape;
    state.group_id[0] = group % shape.num_groups[0];
    state.group_id[1] = (group / shape.num_groups[0]) % shape.num_groups[1];
    state.group_id[2] = group / (shape.num_groups[0] * shape.num_groups[1]);
    state.local_base = mine.local.empty() ? 0 : reinterpret_cast<std::uintptr_t>(mine.local.data());
    if (kernel.uses_barriers()) {
      if (!mine.fibers) mine.fibers = std::make_unique<FiberGroup>(kernel.private_bytes());
      mine.fibers->run(kernel.item_entry(), slots, state);
    } else {
      kernel.group_entry()(slots, &state);
    }
  });
}

}  // namespace plexus::host
