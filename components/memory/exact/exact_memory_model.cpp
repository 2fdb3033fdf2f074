#include "exact_memory_model.hpp"

#include "box_tracker.hpp"

namespace plexus::memory {

ExactMemoryModel::ExactMemoryModel(PluginContext&) : TrackingMemoryModel("memory/exact") {}

std::unique_ptr<BufferTracker> ExactMemoryModel::make_tracker(const BufferDesc& desc) const {
  return std::make_unique<BoxTracker>(desc);
}

}  // namespace plexus::memory
