#include "fiber_group.hpp"

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "plexus/error.hpp"

namespace plexus::host {

namespace ctx = boost::context;

namespace {

// Each fiber's stack: kernels have no recursion, and the JIT inlines everything into one
// frame, so this is private arrays plus spills and the barrier call.
constexpr std::size_t minimum_stack_bytes = 128 * 1024;
constexpr std::size_t stack_headroom_bytes = 64 * 1024;

// Where a work-item's fiber stands between two resumptions.
enum class Wait { none, group_barrier, sub_group_barrier, finished };

// What one work-item's fiber needs; its state's `fiber` field points here.
struct Item {
  plexus_work_item_state state{};
  ctx::fiber scheduler;  // where barrier() switches to
  Wait wait = Wait::none;
  bool abandoned = false;  // the group failed: barriers no longer wait
};

void yield(plexus_work_item_state* state, Wait wait) {
  auto* item = reinterpret_cast<Item*>(static_cast<std::uintptr_t>(state->fiber));
  if (item->abandoned) return;
  item->wait = wait;
  item->scheduler = std::move(item->scheduler).resume();
}

extern "C" void plexus_host_barrier(plexus_work_item_state* state) {
  yield(state, Wait::group_barrier);
}

extern "C" void plexus_host_sub_group_barrier(plexus_work_item_state* state) {
  yield(state, Wait::sub_group_barrier);
}

}  // namespace

struct FiberGroup::Impl {
  explicit Impl(std::size_t stack_bytes) : stacks(stack_bytes) {}
  ctx::pooled_fixedsize_stack stacks;
  std::vector<Item> items;
  std::vector<ctx::fiber> fibers;
  std::vector<std::uint64_t> collective;  // the collective functions' scratch
};

FiberGroup::FiberGroup(std::size_t private_bytes)
    : impl_(std::make_unique<Impl>(stack_bytes_for(private_bytes))) {}

std::size_t FiberGroup::stack_bytes_for(std::size_t private_bytes) {
  const std::size_t page = 4096;
  const std::size_t wanted = private_bytes + stack_headroom_bytes;
  return std::max(minimum_stack_bytes, (wanted + page - 1) / page * page);
}
FiberGroup::~FiberGroup() = default;

void* FiberGroup::barrier_function() { return reinterpret_cast<void*>(&plexus_host_barrier); }
void* FiberGroup::sub_group_barrier_function() {
  return reinterpret_cast<void*>(&plexus_host_sub_group_barrier);
}

void FiberGroup::run(ItemEntry entry, void** arguments, const plexus_work_item_state& group) {
  const std::size_t nx = group.local_size[0], ny = group.local_size[1], nz = group.local_size[2];
  const std::size_t count = nx * ny * nz;
  const std::size_t sub_size = std::max<std::uint64_t>(group.sub_group_size, 1);
  std::vector<Item>& items = impl_->items;
  std::vector<ctx::fiber>& fibers = impl_->fibers;
  if (impl_->collective.size() < 2 * count + 2) impl_->collective.resize(2 * count + 2);
  items.clear();
  items.resize(count);
  fibers.clear();
  fibers.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Item& item = items[i];
    item.state = group;
    item.state.local_id[0] = i % nx;
    item.state.local_id[1] = (i / nx) % ny;
    item.state.local_id[2] = i / (nx * ny);
    item.state.fiber = reinterpret_cast<std::uintptr_t>(&item);
    item.state.collective = reinterpret_cast<std::uintptr_t>(impl_->collective.data());
    fibers.emplace_back(std::allocator_arg, impl_->stacks,
                        [&item, entry, arguments](ctx::fiber&& scheduler) {
                          item.scheduler = std::move(scheduler);
                          entry(arguments, &item.state);
                          item.wait = Wait::finished;
                          return std::move(item.scheduler);
                        });
  }
  // Passes: every runnable work-item runs to its next barrier (or its end). Then a
  // sub-group whose work-items all wait at a sub-group barrier goes on; when none does, the
  // work-group goes on once all wait at a work-group barrier. Anything else is a barrier
  // in divergent control flow.
  std::size_t round = 0;
  for (;;) {
    std::size_t finished = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (items[i].wait == Wait::none) fibers[i] = std::move(fibers[i]).resume();
      if (items[i].wait == Wait::finished) ++finished;
    }
    if (finished == count) return;
    std::string divergence;
    bool released = false;
    for (std::size_t first = 0; first < count && divergence.empty(); first += sub_size) {
      const std::size_t last = std::min(count, first + sub_size);
      std::size_t waiting = 0;
      for (std::size_t i = first; i < last; ++i) waiting += items[i].wait == Wait::sub_group_barrier;
      if (waiting == last - first) {
        for (std::size_t i = first; i < last; ++i) items[i].wait = Wait::none;
        released = true;
      } else if (waiting != 0) {
        divergence = std::to_string(waiting) + " of the " + std::to_string(last - first) +
                     " work-items of sub-group " + std::to_string(first / sub_size) +
                     " wait at a sub-group barrier while the others do not (a sub-group "
                     "barrier or collective in divergent control flow)";
      }
    }
    if (released) continue;
    if (divergence.empty() && finished == 0) {
      for (Item& item : items) item.wait = Wait::none;
      ++round;
      continue;
    }
    if (divergence.empty())
      divergence = std::to_string(finished) + " of " + std::to_string(count) +
                   " work-items finished while the others wait at barrier " +
                   std::to_string(round + 1) + " (a barrier in divergent control flow)";
    // Let the waiting work-items run to their end (JIT frames cannot be unwound), then
    // report.
    for (Item& item : items) item.abandoned = true;
    for (std::size_t i = 0; i < count; ++i)
      if (items[i].wait != Wait::finished) fibers[i] = std::move(fibers[i]).resume();
    throw error(error_category::device,
                "work-group (" + std::to_string(group.group_id[0]) + ", " +
                    std::to_string(group.group_id[1]) + ", " + std::to_string(group.group_id[2]) +
                    "): " + divergence);
  }
}

}  // namespace plexus::host
