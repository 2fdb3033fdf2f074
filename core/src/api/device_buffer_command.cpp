#include "device_buffer_command.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "buffer_storage.hpp"
#include "plexus/device_queue.hpp"
#include "range_rows.hpp"

namespace plexus::detail {
namespace {

struct Piece {
  std::size_t offset = 0;  // bytes into the allocation
  std::size_t bytes = 0;
};

std::vector<Piece> rows_of(const Requirement& requirement) {
  std::vector<Piece> rows;
  for_each_row(requirement.range, requirement.storage->desc(),
               [&](std::size_t offset, std::size_t bytes) {
                 if (!rows.empty() && rows.back().offset + rows.back().bytes == offset)
                   rows.back().bytes += bytes;  // rows that follow each other: one piece
                 else
                   rows.push_back({offset, bytes});
               });
  return rows;
}

// The host base address that puts `offset` of the allocation at `memory` (the queues add the
// offset back).
void* base_for(void* memory, std::size_t offset) {
  return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(memory) - offset);
}

struct Segment {
  std::size_t from, to, bytes;  // source offset, destination offset
};

// Where the source's rows and the destination's rows meet, over the source's bytes.
std::vector<Segment> segments_of(const std::vector<Piece>& source,
                                 const std::vector<Piece>& destination) {
  std::vector<Segment> segments;
  std::size_t s = 0, d = 0, s_done = 0, d_done = 0;
  while (s < source.size() && d < destination.size()) {
    const std::size_t bytes =
        std::min(source[s].bytes - s_done, destination[d].bytes - d_done);
    segments.push_back({source[s].offset + s_done, destination[d].offset + d_done, bytes});
    s_done += bytes;
    d_done += bytes;
    if (s_done == source[s].bytes) ++s, s_done = 0;
    if (d_done == destination[d].bytes) ++d, d_done = 0;
  }
  return segments;
}

bool overlap(const std::vector<Segment>& segments) {
  for (const Segment& a : segments)
    for (const Segment& b : segments)
      if (a.from < b.to + b.bytes && b.to < a.from + a.bytes) return true;
  return false;
}

void copy(DeviceQueue& queue, const std::vector<Segment>& segments, void* target,
          const void* source) {
  const bool in_place = target == source && overlap(segments);
  std::size_t done = 0;
  if (!in_place)
    for (; done < segments.size(); ++done) {
      const Segment& s = segments[done];
      if (!queue.copy_within(target, s.to, source, s.from, s.bytes)) break;
    }
  if (done == segments.size()) return;
  // Through host memory: what is left, read whole, then written.
  std::size_t bytes = 0;
  for (std::size_t i = done; i < segments.size(); ++i) bytes += segments[i].bytes;
  std::vector<std::byte> staged(bytes);
  std::size_t at = 0;
  for (std::size_t i = done; i < segments.size(); at += segments[i++].bytes)
    queue.copy_to_host(base_for(staged.data() + at, segments[i].from), source,
                       CopyLayout::contiguous(segments[i].from, segments[i].bytes));
  queue.wait();
  at = 0;
  for (std::size_t i = done; i < segments.size(); at += segments[i++].bytes)
    queue.copy_to_device(target, base_for(staged.data() + at, segments[i].to),
                         CopyLayout::contiguous(segments[i].to, segments[i].bytes));
  queue.wait();
}

void fill(DeviceQueue& queue, const std::vector<Piece>& rows, void* target,
          std::span<const std::byte> pattern) {
  std::size_t done = 0;
  for (; done < rows.size(); ++done)
    if (!queue.fill_within(target, rows[done].offset, pattern.data(), pattern.size(),
                           rows[done].bytes))
      break;
  if (done == rows.size()) return;
  // Through host memory: one filled block as long as the longest row, written per row.
  std::size_t longest = 0;
  for (std::size_t i = done; i < rows.size(); ++i) longest = std::max(longest, rows[i].bytes);
  std::vector<std::byte> block(longest);
  for (std::size_t at = 0; at < longest; at += pattern.size())
    std::copy(pattern.begin(), pattern.end(), block.begin() + static_cast<std::ptrdiff_t>(at));
  for (std::size_t i = done; i < rows.size(); ++i)
    queue.copy_to_device(target, base_for(block.data(), rows[i].offset),
                         CopyLayout::contiguous(rows[i].offset, rows[i].bytes));
  queue.wait();
}

}  // namespace

void run_buffer_command_on_device(DeviceQueue& queue, const BufferOnDevice& command,
                                  std::span<const Requirement> requirements, LocationId location,
                                  RuntimeState& runtime) {
  const Requirement& written = requirements[command.destination];
  void* target = written.storage->allocation(location, runtime);
  if (command.kind == BufferOnDevice::Kind::fill) {
    fill(queue, rows_of(written), target, command.pattern);
    return;
  }
  const Requirement& read = requirements[command.source];
  const void* source = read.storage->allocation(location, runtime);
  const std::vector<Piece> from = rows_of(read), to = rows_of(written);
  copy(queue, segments_of(from, to), target, source);
}

}  // namespace plexus::detail
