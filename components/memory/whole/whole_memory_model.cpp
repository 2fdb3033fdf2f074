#include "whole_memory_model.hpp"

#include "page_tracker.hpp"

namespace plexus::memory {

WholeMemoryModel::WholeMemoryModel(PluginContext&) : TrackingMemoryModel("memory/whole") {}

std::unique_ptr<BufferTracker> WholeMemoryModel::make_tracker(const BufferDesc& desc) const {
  return std::make_unique<PageTracker>(desc, desc.extent);
}

}  // namespace plexus::memory
