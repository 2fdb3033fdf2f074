// ZeQueue's copies: host <-> device, device -> device (this device or a peer), USM copies
// and fills.
#include <limits>
#include <string>

#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "ze_device.hpp"
#include "ze_queue.hpp"

namespace plexus::level_zero {
namespace {

constexpr std::size_t most_32 = std::numeric_limits<std::uint32_t>::max();

ze_copy_region_t region(const CopyLayout& layout, std::size_t slices) {
  return {0, 0, 0, static_cast<std::uint32_t>(layout.row_bytes),
          static_cast<std::uint32_t>(layout.rows), static_cast<std::uint32_t>(slices)};
}

}  // namespace

// Copies the region `layout` from `source` to `destination` (both the allocations' bases).
void ZeQueue::copy(void* destination, const void* source, const CopyLayout& layout,
                   const char* what) {
  const ZeLoader& loader = device_.loader();
  const std::string named = std::string(what) + " of " + std::to_string(layout.bytes()) + " bytes";
  char* to = static_cast<char*>(destination) + layout.offset;
  const char* from = static_cast<const char*>(source) + layout.offset;
  if (layout.rows == 1 && layout.slices == 1) {
    Step step = begin();
    if (!step.signal) return;
    commit(step,
           loader.command_list_append_memory_copy(list_, to, from, layout.row_bytes,
                                                  step.signal->handle, step.wait_count,
                                                  step.waits.data()),
           "zeCommandListAppendMemoryCopy", named);
    return;
  }
  const std::size_t row_pitch = layout.rows > 1 ? layout.row_pitch : layout.row_bytes;
  const std::size_t slice_pitch = layout.slices > 1 ? layout.slice_pitch : row_pitch * layout.rows;
  const bool fits = layout.row_bytes <= most_32 && layout.rows <= most_32 &&
                    layout.slices <= most_32 && row_pitch <= most_32 && slice_pitch <= most_32;
  if (!fits) {  // pitches beyond 32 bits: one contiguous copy per row
    for (std::size_t s = 0; s < layout.slices; ++s)
      for (std::size_t r = 0; r < layout.rows; ++r) {
        const std::size_t at = s * layout.slice_pitch + r * row_pitch;
        Step step = begin();
        if (!step.signal) return;
        commit(step,
               loader.command_list_append_memory_copy(list_, to + at, from + at, layout.row_bytes,
                                                      step.signal->handle, step.wait_count,
                                                      step.waits.data()),
               "zeCommandListAppendMemoryCopy", named);
      }
    return;
  }
  // One 3D region when the slices are a whole number of rows apart, else one per slice.
  const bool whole = layout.slices == 1 || slice_pitch % row_pitch == 0;
  const std::size_t slices = whole ? layout.slices : 1;
  const ze_copy_region_t box = region(layout, slices);
  for (std::size_t s = 0; s < layout.slices; s += slices) {
    const std::size_t at = s * slice_pitch;
    Step step = begin();
    if (!step.signal) return;
    commit(step,
           loader.command_list_append_memory_copy_region(
               list_, to + at, &box, static_cast<std::uint32_t>(row_pitch),
               static_cast<std::uint32_t>(slice_pitch), from + at, &box,
               static_cast<std::uint32_t>(row_pitch), static_cast<std::uint32_t>(slice_pitch),
               step.signal->handle, step.wait_count, step.waits.data()),
           "zeCommandListAppendMemoryCopyRegion", named);
  }
}

void ZeQueue::copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) {
  validate_copy(layout, allocation, host_base, allocation ? device_.bytes_after(allocation) : 0,
                "Level Zero device '" + device_.info().name + "': copy_to_device");
  copy(allocation, host_base, layout, "copy_to_device");
}

void ZeQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  validate_copy(layout, allocation, host_base, allocation ? device_.bytes_after(allocation) : 0,
                "Level Zero device '" + device_.info().name + "': copy_to_host");
  copy(host_base, allocation, layout, "copy_to_host");
}

bool ZeQueue::copy_from_device(void* allocation, Device& source, const void* source_allocation,
                               const CopyLayout& layout) {
  auto* from = dynamic_cast<ZeDevice*>(&source);
  if (!from || !device_.can_access(*from)) return false;
  const std::string what = "Level Zero device '" + device_.info().name +
                           "': copy_from_device from '" + from->info().name + "'";
  validate_copy(layout, allocation, source_allocation,
                allocation ? device_.bytes_after(allocation) : 0, what);
  validate_copy(layout, source_allocation, allocation,
                source_allocation ? from->bytes_after(source_allocation) : 0, what);
  copy(allocation, source_allocation, layout, "copy_from_device");
  return true;
}

void ZeQueue::usm_copy(void* destination, const void* source, std::size_t bytes) {
  const std::string what = "USM copy of " + std::to_string(bytes) + " bytes";
  validate_usm_copy(destination, source,
                    "Level Zero device '" + device_.info().name + "': " + what);
  if (bytes == 0) return;
  Step step = begin();
  if (!step.signal) return;
  commit(step,
         device_.loader().command_list_append_memory_copy(list_, destination, source, bytes,
                                                          step.signal->handle, step.wait_count,
                                                          step.waits.data()),
         "zeCommandListAppendMemoryCopy", what);
}

bool ZeQueue::usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                       std::size_t bytes) {
  const std::string what = "USM fill of " + std::to_string(bytes) + " bytes";
  validate_usm_fill(destination, pattern, pattern_size, bytes,
                    "Level Zero device '" + device_.info().name + "': " + what);
  const bool power_of_two = (pattern_size & (pattern_size - 1)) == 0;
  if (!power_of_two || pattern_size > device_.max_fill_pattern_bytes()) return false;
  if (bytes == 0) return true;
  Step step = begin();
  if (!step.signal) return true;
  commit(step,
         device_.loader().command_list_append_memory_fill(
             list_, destination, pattern, pattern_size, bytes, step.signal->handle,
             step.wait_count, step.waits.data()),
         "zeCommandListAppendMemoryFill", what);
  return true;
}

}  // namespace plexus::level_zero
