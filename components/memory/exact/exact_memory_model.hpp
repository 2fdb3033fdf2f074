// memory/exact: exact box sets. Accesses conflict only where their ranges overlap, and
// copies move exactly the elements an access needs that are out of date (coalesced into
// boxes). No false sharing and no page size to tune. Options: none.
#pragma once

#include "plexus/plugin_context.hpp"
#include "tracking_memory_model.hpp"

namespace plexus::memory {

class ExactMemoryModel final : public TrackingMemoryModel {
 public:
  explicit ExactMemoryModel(PluginContext& context);
  // Reads no options: a key in its table is warned about (plugin.hpp, check_options).
  static void check_options(const ComponentOptions&) {}

 protected:
  std::unique_ptr<BufferTracker> make_tracker(const BufferDesc& desc) const override;
};

}  // namespace plexus::memory
