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
#include "plexus/kernel_fault_report.hpp"
#include "plexus/task_execution.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::host {

namespace {

std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Per-thread scratch of one launch: the local block and the fibers.
struct Scratch {
  std::vector<Chunk> local;
  std::unique_ptr<FiberGroup> fibers;
};

}  // namespace

ArgumentBlock::ArgumentBlock(std::span<const KernelArgument> arguments,
                             std::size_t static_local_bytes)
    : count_(arguments.size()), local_bytes_(static_local_bytes) {
  const auto value_bytes = [](const KernelArgument& argument) {
    return round_up(
        argument.kind == KernelArgumentKind::scalar ? argument.size : sizeof(std::uint64_t),
        sizeof(Chunk));
  };
  std::size_t total = 0;
  for (const KernelArgument& argument : arguments) total += value_bytes(argument);
  const std::size_t tables = count_ * (sizeof(void*) + sizeof(std::size_t));
  std::size_t space = total + alignof(Chunk) - 1;
  storage_ = std::make_unique_for_overwrite<std::byte[]>(tables + space);
  slots_ = reinterpret_cast<void**>(storage_.get());
  capacities_ = reinterpret_cast<std::size_t*>(storage_.get() + count_ * sizeof(void*));
  void* first = storage_.get() + tables;
  auto* next = static_cast<std::byte*>(std::align(alignof(Chunk), total, first, space));
  std::memset(next, 0, total);
  for (std::size_t i = 0; i < count_; ++i) {
    const KernelArgument& argument = arguments[i];
    capacities_[i] = value_bytes(argument);
    slots_[i] = next;
    if (argument.kind == KernelArgumentKind::local) {
      const std::uint64_t offset = local_bytes_;
      std::memcpy(next, &offset, sizeof offset);
      local_bytes_ = round_up(local_bytes_ + argument.size, local_block_alignment);
    }
    next += capacities_[i];
  }
  update(arguments);
}

void ArgumentBlock::update(std::span<const KernelArgument> arguments) {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgument& argument = arguments[i];
    if (argument.kind == KernelArgumentKind::scalar) {
      std::memcpy(slots_[i], argument.value, argument.size);
    } else if (argument.kind == KernelArgumentKind::allocation) {
      std::memcpy(slots_[i], &argument.allocation, sizeof(void*));
    }
  }
}

NdRange with_local_size(const NdRange& range, bool uses_barriers, std::size_t max_group) {
  NdRange chosen = range;
  if (range.has_local_size()) return chosen;
  chosen.local = {1, 1, 1};
  if (uses_barriers) {
    std::size_t left = std::min<std::size_t>(256, max_group);
    for (std::size_t d = 0; d < range.dimensions; ++d) {
      chosen.local[d] =
          largest_divisor_at_most(range.global[d],
                                  d == 0 ? std::min<std::size_t>(64, left) : left);
      left /= chosen.local[d];
    }
  } else {
    // One loop nest per work-group: up to 1024 work-items, dimension 0 first (the inner,
    // vectorised loop), then dimension 1 when dimension 0 is short.
    const std::size_t limit = std::min<std::size_t>(max_group, 1024);
    chosen.local[0] = largest_divisor_at_most(range.global[0], limit);
    if (range.dimensions > 1 && chosen.local[0] < 64)
      chosen.local[1] = largest_divisor_at_most(range.global[1], limit / chosen.local[0]);
  }
  return chosen;
}

PreparedLaunch prepare_launch(HostDevice& device, const HostKernel& kernel,
                              const NdRange& requested, std::span<const KernelArgument> arguments) {
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

  PreparedLaunch prepared{&kernel, {}, 1, ArgumentBlock(arguments, kernel.static_local_bytes())};
  if (prepared.block.local_bytes() > device.info().local_memory_bytes)
    throw error(error_category::invalid_argument,
                what() + ": the work-group needs " + std::to_string(prepared.block.local_bytes()) +
                    " bytes of local memory, more than the device's " +
                    std::to_string(device.info().local_memory_bytes));

  plexus_work_item_state& shape = prepared.shape;
  shape.work_dim = range.dimensions;
  shape.sub_group_size = device.sub_group_size();
  for (std::size_t d = 0; d < 3; ++d) {
    shape.global_size[d] = range.global[d];
    shape.local_size[d] = range.local[d];
    shape.num_groups[d] = range.global[d] / range.local[d];
    shape.global_offset[d] = d < range.dimensions ? range.offset[d] : 0;
    prepared.groups *= shape.num_groups[d];
  }
  return prepared;
}

void run_prepared(HostDevice& device, const PreparedLaunch& prepared) {
  const HostKernel& kernel = *prepared.kernel;
  const plexus_work_item_state& shape = prepared.shape;
  const ArgumentBlock& block = prepared.block;
  auto what = [&] {
    return "launch of '" + kernel.info().name + "' on '" + device.info().name + "'";
  };
  void* const* slots = block.slots();
  // Cooperative cancel (TaskEvent::cancel) at work-group granularity: the groups not yet
  // started when it is asked do not run, and the launch fails with error(cancelled).
  const TaskEvent* task = current_task();
  const auto run_group = [&](std::size_t group, Scratch& mine) {
    if (task && task->cancel_requested()) {
      throw error(error_category::cancelled,
                  what() + ": cancelled; the work-groups not started by then did not run");
    }
    const KernelFaultScope fault_scope(kernel.info().name.c_str(), device.info().name.c_str());
    if (block.local_bytes() > 0 && mine.local.empty())
      mine.local.resize(round_up(block.local_bytes(), sizeof(Chunk)) / sizeof(Chunk));
    plexus_work_item_state state = shape;
    state.group_id[0] = group % shape.num_groups[0];
    state.group_id[1] = (group / shape.num_groups[0]) % shape.num_groups[1];
    state.group_id[2] = group / (shape.num_groups[0] * shape.num_groups[1]);
    state.local_base = mine.local.empty() ? 0 : reinterpret_cast<std::uintptr_t>(mine.local.data());
    if (kernel.uses_barriers()) {
      if (!mine.fibers) mine.fibers = std::make_unique<FiberGroup>(kernel.private_bytes());
      mine.fibers->run(kernel.item_entry(), const_cast<void**>(slots), state);
    } else {
      kernel.group_entry()(const_cast<void**>(slots), &state);
    }
  };
  if (prepared.groups == 1) {
    // On this thread at once: no job for the pool, no scratch for its threads (a small
    // kernel's launch is then mostly the kernel's own work).
    Scratch mine;
    return run_group(0, mine);
  }
  ThreadPool& pool = device.pool();
  std::vector<Scratch> scratch(pool.participants());
  pool.parallel_for(prepared.groups,
                    [&](std::size_t group, std::size_t slot) { run_group(group, scratch[slot]); });
}

void run_kernel(HostDevice& device, const HostKernel& kernel, const NdRange& range,
                std::span<const KernelArgument> arguments) {
  run_prepared(device, prepare_launch(device, kernel, range, arguments));
}

}  // namespace plexus::host
