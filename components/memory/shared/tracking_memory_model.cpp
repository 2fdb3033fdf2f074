#include "tracking_memory_model.hpp"

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "plexus/error.hpp"

namespace plexus::memory {

namespace {

std::string text(const Extent3& e) {
  return "[" + std::to_string(e[0]) + ", " + std::to_string(e[1]) + ", " + std::to_string(e[2]) +
         "]";
}

bool has_zero(const Extent3& e) { return e[0] == 0 || e[1] == 0 || e[2] == 0; }

void count_transfer(MemoryStats& stats, const TransferCounter& more) {
  auto it = std::find_if(stats.transfers.begin(), stats.transfers.end(), [&](const auto& counter) {
    return counter.from == more.from && counter.to == more.to;
  });
  if (it == stats.transfers.end()) {
    stats.transfers.push_back(more);
  } else {
    it->copies += more.copies;
    it->bytes += more.bytes;
  }
}

// Adds the counters of `more` to `stats`.
void add(MemoryStats& stats, const MemoryStats& more) {
  stats.accesses += more.accesses;
  stats.dependencies += more.dependencies;
  stats.allocations += more.allocations;
  stats.allocated_bytes += more.allocated_bytes;
  for (const auto& counter : more.transfers) count_transfer(stats, counter);
}

}  // namespace

TrackingMemoryModel::TrackingMemoryModel(std::string name) : name_(std::move(name)) {}

TrackingMemoryModel::~TrackingMemoryModel() = default;

BufferId TrackingMemoryModel::create_buffer(const BufferDesc& desc) {
  auto fail = [&](const std::string& what) {
    throw error(error_category::invalid_argument, name_ + ": create_buffer: " + what);
  };
  if (desc.element_size == 0) fail("element_size is 0; give the size of one element in bytes");
  if (has_zero(desc.extent)) {
    fail("extent " + text(desc.extent) +
         " has a zero; every dimension needs at least one element (use 1 for unused ones)");
  }
  const Extent3 zero{0, 0, 0};
  if (desc.page_extent != zero && has_zero(desc.page_extent)) {
    fail("page_extent " + text(desc.page_extent) +
         " has a zero; give all three dimensions, or [0, 0, 0] for the policy's default");
  }
  std::size_t bytes = desc.element_size;
  for (std::size_t e : desc.extent) {
    if (bytes > std::numeric_limits<std::size_t>::max() / e) {
      fail("extent " + text(desc.extent) + " of " + std::to_string(desc.element_size) +
           "-byte elements overflows the address space");
    }
    bytes *= e;
  }

  auto buffer = std::make_shared<Buffer>();
  buffer->desc = desc;
  buffer->tracker = make_tracker(desc);
  if (desc.host_data_valid) buffer->allocated = location_bit(host_location);
  std::unique_lock lock(table_mutex_);
  const BufferId id = next_id_++;
  buffers_.emplace(id, std::move(buffer));
  return id;
}

std::vector<LocationId> TrackingMemoryModel::release_buffer(BufferId id) {
  std::lock_guard stats_lock(stats_mutex_);  // its counters move to released_ at once
  std::shared_ptr<Buffer> buffer;
  {
    std::unique_lock lock(table_mutex_);
    auto it = buffers_.find(id);
    if (it == buffers_.end()) {
      throw error(error_category::invalid_argument, name_ + ": release_buffer: no buffer " +
                                                        std::to_string(id) +
                                                        " (never created, or released already)");
    }
    buffer = std::move(it->second);
    buffers_.erase(it);
  }
  std::lock_guard lock(buffer->mutex);
  add(released_, buffer->stats);
  std::vector<LocationId> locations;
  for (LocationId l = 0; l < max_locations; ++l) {
    if (buffer->allocated & location_bit(l)) locations.push_back(l);
  }
  return locations;
}

std::shared_ptr<TrackingMemoryModel::Buffer> TrackingMemoryModel::find(
    BufferId id, const char* operation) const {
  std::shared_lock lock(table_mutex_);
  auto it = buffers_.find(id);
  if (it == buffers_.end()) {
    throw error(error_category::invalid_argument, name_ + ": " + operation + ": no buffer " +
                                                      std::to_string(id) +
                                                      " (never created, or released already)");
  }
  return it->second;
}

void TrackingMemoryModel::check(BufferId id, const Buffer& buffer,
                                const BufferAccess& access) const {
  auto fail = [&](const std::string& what) {
    throw error(error_category::invalid_argument,
                name_ + ": access to buffer " + std::to_string(id) + ": " + what);
  };
  if (access.location >= max_locations) {
    fail("location " + std::to_string(access.location) + " is out of range (at most " +
         std::to_string(max_locations - 1) + ")");
  }
  const AccessRange& range = access.range;
  if (has_zero(range.extent)) {
    fail("range extent " + text(range.extent) + " is empty; every dimension needs at least 1");
  }
  const Extent3& extent = buffer.desc.extent;
  for (int d = 0; d < 3; ++d) {
    if (range.offset[d] > extent[d] || range.extent[d] > extent[d] - range.offset[d]) {
      fail("range offset " + text(range.offset) + " extent " + text(range.extent) +
           " is outside the buffer's extent " + text(extent) + " in dimension " +
           std::to_string(d));
    }
  }
}

AccessPlan TrackingMemoryModel::plan(const Buffer& buffer, const BufferAccess& access,
                                     const TaskEvent* self,
                                     std::vector<SourcedBox>& sourced) const {
  AccessPlan plan;
  const LocationId at = access.location;
  plan.allocate = (buffer.allocated & location_bit(at)) == 0;

  // The candidates are gathered in place and filtered below (one vector, usually one task).
  std::vector<std::shared_ptr<TaskEvent>>& candidates = plan.dependencies;
  buffer.tracker->conflicts(access.range, access.mode, candidates);
  buffer.tracker->copies(access.range, access.mode, at, sourced);

  // Data valid at a location only once another task's copies ran: the access reads it at
  // its own location (its footprint) or one of its copies reads it at the source.
  if (!buffer.arrivals.empty()) {
    const Box3 footprint = buffer.tracker->footprint(access.range);
    for (const auto& arrival : buffer.arrivals) {
      bool needed = arrival.location == at && intersects(arrival.box, footprint);
      for (std::size_t i = 0; !needed && i < sourced.size(); ++i) {
        needed = sourced[i].from == arrival.location && intersects(arrival.box, sourced[i].box);
      }
      // A failed task whose copies may have left part of the data: as a failed writer.
      if (needed && writer_matters(*arrival.task, access.mode)) candidates.push_back(arrival.task);
    }
  }

  // Keeps, in order, the candidates that are set, not `self`, not done and not kept already.
  // Few candidates (the common case): a linear check among those kept, no allocation.
  const bool many = candidates.size() > 32;
  std::unordered_set<const TaskEvent*> seen;
  std::size_t kept = 0;
  auto first_time = [&](const TaskEvent* event) {
    if (many) return seen.insert(event).second;
    for (std::size_t i = 0; i < kept; ++i) {
      if (candidates[i].get() == event) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const TaskEvent* task = candidates[i].get();
    // Done tasks are left out, but for failed writers the tracker kept (writer_matters).
    if (!task || task == self || !first_time(task) || task->status() == TaskStatus::complete)
      continue;
    if (kept != i) candidates[kept] = std::move(candidates[i]);
    ++kept;
  }
  candidates.resize(kept);

  const BufferDesc& desc = buffer.desc;
  plan.copies.reserve(sourced.size());
  for (const auto& piece : sourced) {
    BufferCopy copy;
    copy.from = piece.from;
    copy.to = at;
    copy.box = piece.box;
    copy.bytes = volume(piece.box) * desc.element_size;
    copy.byte_offset = linear_offset(piece.box, desc.extent) * desc.element_size;
    copy.contiguous = is_contiguous(piece.box, desc.extent);
    plan.copies.push_back(copy);
  }
  return plan;
}

void TrackingMemoryModel::check_lost(BufferId id, Buffer& buffer, const BufferAccess& access) const {
  if (buffer.lost.empty()) return;
  if (access.mode == AccessMode::discard_write) {
    std::vector<Lost> left;
    std::vector<Box3> pieces;
    for (const Lost& lost : buffer.lost) {
      pieces.clear();
      subtract(lost.box, access.range, pieces);
      for (const Box3& piece : pieces) left.push_back({piece, lost.why});
    }
    buffer.lost = std::move(left);
    return;
  }
  for (const Lost& lost : buffer.lost) {
    if (!intersects(lost.box, access.range)) continue;
    const auto& o = lost.box.offset;
    const auto& e = lost.box.extent;
    throw error(error_category::device,
                name_ + ": buffer " + std::to_string(id) + ": elements at [" + std::to_string(o[0]) +
                    ", " + std::to_string(o[1]) + ", " + std::to_string(o[2]) + "] extent [" +
                    std::to_string(e[0]) + ", " + std::to_string(e[1]) + ", " +
                    std::to_string(e[2]) + "] are lost: their only valid copy was on a device "
                    "that is gone (" + lost.why + "); write them again (discard_write) to use them");
  }
}

void TrackingMemoryModel::lose_location(LocationId location, const std::string& why) {
  if (location == host_location || location >= max_locations)
    throw error(error_category::invalid_argument,
                name_ + ": lose_location: location " + std::to_string(location) +
                    " is not a device's (1.." + std::to_string(max_locations - 1) + ")");
  std::shared_lock lock(table_mutex_);
  std::vector<Box3> boxes;
  for (const auto& [id, buffer] : buffers_) {
    std::lock_guard buffer_lock(buffer->mutex);
    boxes.clear();
    buffer->tracker->lose(location, boxes);
    // Copies from there that had not completed: what they were to bring is lost too.
    for (const Arrival& arrival : buffer->arrivals)
      if (arrival.from == location && arrival.task->status() != TaskStatus::complete)
        boxes.push_back(arrival.box);
    for (const Box3& box : boxes) buffer->lost.push_back({box, why});
  }
}

AccessPlan TrackingMemoryModel::preview(const BufferAccess& access) const {
  auto buffer = find(access.buffer, "preview");
  std::lock_guard lock(buffer->mutex);
  check(access.buffer, *buffer, access);
  std::vector<SourcedBox> sourced;
  return plan(*buffer, access, nullptr, sourced);
}

AccessPlan TrackingMemoryModel::record(const BufferAccess& access,
                                       std::shared_ptr<TaskEvent> task) {
  if (!task) {
    throw error(error_category::invalid_argument,
                name_ + ": record: the task event is null; pass the accessing task's event");
  }
  auto buffer = find(access.buffer, "record");
  AccessPlan result;
  {
    std::lock_guard lock(buffer->mutex);
    check(access.buffer, *buffer, access);
    check_lost(access.buffer, *buffer, access);
    std::vector<SourcedBox> sourced;
    result = plan(*buffer, access, task.get(), sourced);
    buffer->tracker->record(access.range, access.mode, access.location, sourced, task);
    buffer->allocated |= location_bit(access.location);
    std::erase_if(buffer->arrivals, [](const Arrival& a) { return a.task->is_done(); });
    for (const auto& piece : sourced) {
      buffer->arrivals.push_back({task, access.location, piece.box, piece.from});
    }
    MemoryStats& stats = buffer->stats;
    ++stats.accesses;
    stats.dependencies += result.dependencies.size();
    if (result.allocate) {
      ++stats.allocations;
      stats.allocated_bytes += buffer_bytes(buffer->desc);
    }
    for (const auto& copy : result.copies) {
      count_transfer(stats, {copy.from, copy.to, 1, copy.bytes});
    }
  }
  return result;
}

MemoryStats TrackingMemoryModel::stats() const {
  std::lock_guard stats_lock(stats_mutex_);
  MemoryStats out = released_;
  {
    std::shared_lock lock(table_mutex_);
    for (const auto& [id, buffer] : buffers_) {
      std::lock_guard buffer_lock(buffer->mutex);
      add(out, buffer->stats);
    }
  }
  std::sort(out.transfers.begin(), out.transfers.end(), [](const auto& a, const auto& b) {
    return std::pair(a.from, a.to) < std::pair(b.from, b.to);
  });
  return out;
}

void TrackingMemoryModel::reset_stats() {
  std::lock_guard stats_lock(stats_mutex_);
  released_ = MemoryStats{};
  std::shared_lock lock(table_mutex_);
  for (const auto& [id, buffer] : buffers_) {
    std::lock_guard buffer_lock(buffer->mutex);
    buffer->stats = MemoryStats{};
  }
}

}  // namespace plexus::memory
