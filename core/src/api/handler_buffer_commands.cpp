// Handler's buffer commands: copy, fill and update_host on accessors (handler.hpp). A copy
// between two accessors and a fill also get a device form (BufferOnDevice): on a queue whose
// device has memory of its own they run there (device_buffer_command.hpp); otherwise, and
// for the copies from and to host pointers and update_host, the command is host work: its
// requirements are recorded at the host location, so the memory model makes their ranges
// valid there before the work runs on a host thread.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "buffer_storage.hpp"
#include "command_group.hpp"
#include "plexus/error.hpp"
#include "plexus/handler.hpp"
#include "range_rows.hpp"

namespace plexus {
namespace {

// One accessor's range in its buffer's host copy: rows of contiguous bytes, in row-major
// order of the range. Made when the command runs, from the group's requirement (a graph's
// replay may have rebound its buffer since it was recorded).
struct RangeRows {
  detail::BufferStorage* storage;
  AccessRange range;

  RangeRows(std::span<const Requirement> requirements, std::size_t index)
      : storage(requirements[index].storage.get()), range(requirements[index].range) {}

  std::size_t elements() const { return range.extent[0] * range.extent[1] * range.extent[2]; }
  std::size_t element_size() const { return storage->desc().element_size; }
  // Calls visit(row_start, row_bytes) for each row, in order.
  template <class Visit>
  void each_row(Visit&& visit) const {
    auto* base = static_cast<std::byte*>(host_base(*storage));
    detail::for_each_row(range, storage->desc(), [&](std::size_t offset, std::size_t bytes) {
      visit(base + offset, bytes);
    });
  }
  // The range's bytes, contiguous, and back.
  void gather(std::byte* out) const {
    each_row([&](const std::byte* row, std::size_t bytes) {
      std::memcpy(out, row, bytes);
      out += bytes;
    });
  }
  void scatter(const std::byte* in) const {
    each_row([&](std::byte* row, std::size_t bytes) {
      std::memcpy(row, in, bytes);
      in += bytes;
    });
  }
};

}  // namespace

namespace {

// The requirement index of an accessor of this group, checked.
std::size_t rows_of(const detail::CommandGroup& group, const Handler* self, const Handler* owner,
                    std::size_t requirement, const std::string& what) {
  if (owner != self || requirement >= group.requirements.size())
    throw error(error_category::invalid_argument,
                what + ": the accessor was made for another command group's handler");
  return requirement;
}

std::size_t elements_of(const detail::CommandGroup& group, std::size_t requirement) {
  const Extent3& extent = group.requirements[requirement].range.extent;
  return extent[0] * extent[1] * extent[2];
}

}  // namespace

void Handler::copy_buffer(const Handler* source_owner, std::size_t source,
                          const Handler* destination_owner, std::size_t destination,
                          void* host_destination, const void* host_source) {
  check_no_command("copy");
  const bool from_buffer = source_owner || !host_source;
  const bool to_buffer = destination_owner || !host_destination;
  if (from_buffer && !source_owner)
    throw error(error_category::invalid_argument, "copy: the source accessor is missing");
  if ((!from_buffer && !host_source) || (!to_buffer && !host_destination))
    throw error(error_category::invalid_argument, "copy: a null host pointer");
  std::optional<std::size_t> from, to;
  if (from_buffer) {
    from = rows_of(*group_, this, source_owner, source, "copy (source)");
    if (group_->requirements[source].mode == AccessMode::discard_write)
      throw error(error_category::invalid_argument,
                  "copy: the source accessor is discard_write (no_init): its contents are "
                  "undefined; use read or read_write");
  }
  if (to_buffer) {
    to = rows_of(*group_, this, destination_owner, destination, "copy (destination)");
    if (group_->requirements[destination].mode == AccessMode::read)
      throw error(error_category::invalid_argument,
                  "copy: the destination accessor is read-only; use write or discard_write");
  }
  if (from && to && elements_of(*group_, *to) < elements_of(*group_, *from))
    throw error(error_category::invalid_argument,
                "copy: the destination accessor's range holds " +
                    std::to_string(elements_of(*group_, *to)) + " elements, the source's " +
                    std::to_string(elements_of(*group_, *from)));
  group_->command = "copy";
  group_->has_host_task = true;
  if (from && to) {
    group_->buffer_on_device = {detail::BufferOnDevice::Kind::copy, *from, *to, {}};
    group_->buffer_work = [source = *from, destination = *to](std::span<const Requirement> all) {
      const RangeRows from(all, source), to(all, destination);
      std::vector<std::byte> staged(from.elements() * from.element_size());
      from.gather(staged.data());
      if (to.elements() == from.elements()) {
        to.scatter(staged.data());
        return;
      }
      // A larger destination: only its first source.elements() elements, in order.
      const std::byte* in = staged.data();
      std::size_t left = staged.size();
      to.each_row([&](std::byte* row, std::size_t bytes) {
        const std::size_t now = std::min(bytes, left);
        std::memcpy(row, in, now);
        in += now;
        left -= now;
      });
    };
  } else if (from) {
    group_->buffer_work = [source = *from, host_destination](std::span<const Requirement> all) {
      RangeRows(all, source).gather(static_cast<std::byte*>(host_destination));
    };
  } else {
    group_->buffer_work = [destination = *to, host_source](std::span<const Requirement> all) {
      RangeRows(all, destination).scatter(static_cast<const std::byte*>(host_source));
    };
  }
}

void Handler::fill_buffer(const Handler* owner, std::size_t requirement, const void* value,
                          std::size_t size) {
  check_no_command("fill");
  (void)rows_of(*group_, this, owner, requirement, "fill");
  if (group_->requirements[requirement].mode == AccessMode::read)
    throw error(error_category::invalid_argument,
                "fill: the accessor is read-only; use write or discard_write");
  const auto* first = static_cast<const std::byte*>(value);
  group_->buffer_on_device = {detail::BufferOnDevice::Kind::fill, 0, requirement,
                              {first, first + size}};
  group_->command = "fill";
  group_->has_host_task = true;
  group_->buffer_work = [requirement, element = std::vector<std::byte>(first, first + size)](
                            std::span<const Requirement> all) {
    RangeRows(all, requirement).each_row([&](std::byte* row, std::size_t bytes) {
      for (std::size_t at = 0; at < bytes; at += element.size())
        std::memcpy(row + at, element.data(), element.size());
    });
  };
}

void Handler::update_host(const Handler* owner, std::size_t requirement) {
  check_no_command("update_host");
  (void)rows_of(*group_, this, owner, requirement, "update_host");
  group_->command = "update_host";
  group_->has_host_task = true;  // no work: the group's host placement makes it valid there
}

}  // namespace plexus
