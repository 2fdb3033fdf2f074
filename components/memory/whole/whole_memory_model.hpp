// memory/whole: one page per buffer, the coarse default of most runtimes. Any two accesses
// of a buffer conflict when one writes; a location missing the buffer gets all of it.
// Options: none.
#pragma once

#include "plexus/plugin_context.hpp"
#include "tracking_memory_model.hpp"

namespace plexus::memory {

class WholeMemoryModel final : public TrackingMemoryModel {
 public:
  explicit WholeMemoryModel(PluginContext& context);
  // Reads no options: a key in its table is warned about (plugin.hpp, check_options).
  static void check_options(const ComponentOptions&) {}

 protected:
  std::unique_ptr<BufferTracker> make_tracker(const BufferDesc& desc) const override;
};

}  // namespace plexus::memory
