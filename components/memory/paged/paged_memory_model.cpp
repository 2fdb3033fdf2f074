#include "paged_memory_model.hpp"

#include <string>
#include <vector>

#include "page_tracker.hpp"
#include "plexus/error.hpp"

namespace plexus::memory {

namespace {

constexpr std::size_t default_page_elements = 4096;
constexpr std::int64_t max_page_elements = std::int64_t{1} << 30;  // per dimension

[[noreturn]] void bad_page_size(const ComponentOptions& options, const std::string& found) {
  options.error("page_size",
                "must be an integer from 1 to 2^30 (1D pages) or an array of 1 to 3 such "
                "integers (elements per dimension, e.g. [64, 64, 1]); found " + found);
}

std::optional<Extent3> read_page_size(const ComponentOptions& options) {
  if (!options.contains("page_size")) return std::nullopt;
  std::vector<std::int64_t> values;
  try {
    auto single = options.find<std::int64_t>("page_size");
    values.push_back(*single);
  } catch (const error&) {
    values = *options.find<std::vector<std::int64_t>>("page_size");  // throws a config error
  }
  std::string found = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    found += (i ? ", " : "") + std::to_string(values[i]);
  }
  found += "]";
  if (values.empty() || values.size() > 3) bad_page_size(options, found);
  Extent3 page{1, 1, 1};
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] <= 0 || values[i] > max_page_elements) bad_page_size(options, found);
    page[i] = static_cast<std::size_t>(values[i]);
  }
  return page;
}

}  // namespace

void PagedMemoryModel::check_options(const ComponentOptions& options) {
  read_page_size(options);
}

PagedMemoryModel::PagedMemoryModel(PluginContext& context)
    : TrackingMemoryModel("memory/paged"), page_size_(read_page_size(context.options)) {}

Extent3 PagedMemoryModel::page_extent_for(const BufferDesc& desc) const {
  if (desc.page_extent != Extent3{0, 0, 0}) return desc.page_extent;
  if (page_size_) return *page_size_;
  const int dims = desc.extent[2] > 1 ? 3 : desc.extent[1] > 1 ? 2 : 1;
  if (dims == 1) return {default_page_elements, 1, 1};
  if (dims == 2) return {64, 64, 1};
  return {16, 16, 16};
}

std::unique_ptr<BufferTracker> PagedMemoryModel::make_tracker(const BufferDesc& desc) const {
  return std::make_unique<PageTracker>(desc, page_extent_for(desc));
}

}  // namespace plexus::memory
