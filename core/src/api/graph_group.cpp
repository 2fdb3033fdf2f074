// group_of_kernels (graph_group.hpp).
#include "graph_group.hpp"

#include <algorithm>

namespace plexus::detail {

namespace {

bool contains(const AccessRange& outer, const AccessRange& inner) {
  for (std::size_t d = 0; d < 3; ++d) {
    if (inner.offset[d] < outer.offset[d] ||
        inner.offset[d] + inner.extent[d] > outer.offset[d] + outer.extent[d])
      return false;
  }
  return true;
}

AccessRange bounding(const AccessRange& a, const AccessRange& b) {
  AccessRange both;
  for (std::size_t d = 0; d < 3; ++d) {
    both.offset[d] = std::min(a.offset[d], b.offset[d]);
    both.extent[d] =
        std::max(a.offset[d] + a.extent[d], b.offset[d] + b.extent[d]) - both.offset[d];
  }
  return both;
}

// `merged` (the graph's access of a buffer so far) widened by a later access of its nodes:
// the bounding range; read while every access reads, discard_write while the first
// overwrites a range every later access stays inside, else read_write.
void widen(Requirement& merged, const Requirement& later) {
  const bool inside = contains(merged.range, later.range);
  if (merged.mode == AccessMode::discard_write && inside) return;
  merged.range = bounding(merged.range, later.range);
  if (writes(merged.mode) || writes(later.mode)) merged.mode = AccessMode::read_write;
}

}  // namespace

CommandGroup group_of_kernels(std::span<CommandGroup* const> groups,
                              std::shared_ptr<const DeviceGraphKey> key) {
  CommandGroup group;
  group.runtime = groups.front()->runtime;
  group.device = groups.front()->device;
  group.device_bound = groups.front()->device_bound;
  auto kernels = std::make_shared<GraphKernels>();
  kernels->owner = std::move(key);
  kernels->kernels.reserve(groups.size());
  for (CommandGroup* const each : groups) {
    CommandGroup& node = *each;
    for (auto& dependency : node.dependencies) group.dependencies.push_back(dependency);
    for (const Requirement& own : node.requirements) {
      auto same = std::find_if(group.requirements.begin(), group.requirements.end(),
                               [&](const Requirement& r) { return r.storage == own.storage; });
      if (same == group.requirements.end()) {
        group.requirements.push_back(own);
      } else {
        widen(*same, own);
      }
    }
    GraphKernel launch{std::move(*node.kernel), node.range, std::move(node.arguments)};
    for (ArgumentSlot& slot : launch.arguments) {
      if (slot.kind != ArgumentSlot::Kind::accessor) continue;
      const Requirement& own = node.requirements[slot.requirement];
      auto same = std::find_if(group.requirements.begin(), group.requirements.end(),
                               [&](const Requirement& r) { return r.storage == own.storage; });
      slot.requirement = static_cast<std::size_t>(same - group.requirements.begin());
    }
    kernels->kernels.push_back(std::move(launch));
  }
  group.graph = std::move(kernels);
  return group;
}

}  // namespace plexus::detail
