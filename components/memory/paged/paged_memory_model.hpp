// memory/paged: a fixed 3D page grid per buffer (AdaptiveCpp's page tracking). Conflicts
// and transfers are by page; per-access work is proportional to the pages the access
// touches (no scan of the whole grid).
//
// Options ([memory.paged]):
//   page_size = [64, 64, 1]   elements per dimension, or one integer n for [n, 1, 1]
//                             (1D buffers). Default: 4096 elements per page, shaped by the
//                             buffer's dimensionality ([4096,1,1], [64,64,1], [16,16,16]).
// A buffer's own BufferDesc::page_extent overrides the option. Pages are clipped to the
// buffer's extent.
#pragma once

#include <optional>

#include "plexus/plugin_context.hpp"
#include "tracking_memory_model.hpp"

namespace plexus::memory {

class PagedMemoryModel final : public TrackingMemoryModel {
 public:
  explicit PagedMemoryModel(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);

  // The page extent a buffer of `desc` gets.
  Extent3 page_extent_for(const BufferDesc& desc) const;

 protected:
  std::unique_ptr<BufferTracker> make_tracker(const BufferDesc& desc) const override;

 private:
  std::optional<Extent3> page_size_;  // from the option
};

}  // namespace plexus::memory
