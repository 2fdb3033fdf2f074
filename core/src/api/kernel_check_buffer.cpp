#include "kernel_check_buffer.hpp"

#include <cstring>
#include <limits>
#include <string>

#include "buffer_storage.hpp"
#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_checks.hpp"

namespace plexus::detail {

namespace {

namespace kc = plexus::kernel_checks;

std::size_t linear(const Extent3& index, const Extent3& extent) {
  return (index[0] * extent[1] + index[1]) * extent[2] + index[2];
}

std::string triple(const Extent3& value, int dimensions) {
  std::string text = "{";
  for (int d = 0; d < dimensions; ++d)
    text += (d ? ", " : "") + std::to_string(value[static_cast<std::size_t>(d)]);
  return text + "}";
}

// The elements of `range` are one run in the buffer's linear order.
bool contiguous(const AccessRange& range, const Extent3& extent) {
  if (range.extent[1] == extent[1] && range.extent[2] == extent[2]) return true;
  if (range.extent[0] == 1 && range.extent[2] == extent[2]) return true;
  return range.extent[0] == 1 && range.extent[1] == 1;
}

// The words of an entry for `requirement`'s range.
void fill_range(std::uint64_t* words, const Requirement& requirement) {
  const BufferDesc& desc = requirement.storage->desc();
  const AccessRange& range = requirement.range;
  Extent3 last;
  for (std::size_t d = 0; d < 3; ++d) last[d] = range.offset[d] + range.extent[d] - 1;
  words[kc::lo] = linear(range.offset, desc.extent) * desc.element_size;
  words[kc::hi] = (linear(last, desc.extent) + 1) * desc.element_size;
  words[kc::flags] = (writes(requirement.mode) ? kc::writable : 0) |
                     (contiguous(range, desc.extent) ? 0 : kc::box);
  words[kc::element_size] = desc.element_size;
  for (std::size_t d = 0; d < 3; ++d) {
    words[kc::extent + d] = desc.extent[d];
    words[kc::box_offset + d] = range.offset[d];
    words[kc::box_extent + d] = range.extent[d];
  }
}

// The words of one argument's bounds.
void fill(std::uint64_t* words, const ArgumentSlot& slot, const CommandGroup& group) {
  constexpr std::uint64_t unbounded = std::uint64_t{1} << 62;
  switch (slot.kind) {
    case ArgumentSlot::Kind::accessor:
      fill_range(words, group.requirements[slot.requirement]);
      break;
    case ArgumentSlot::Kind::local:
      words[kc::hi] = slot.local_bytes;
      words[kc::flags] = kc::writable;
      break;
    case ArgumentSlot::Kind::pointer:  // USM or a buffer's device_pointer: its allocation
      words[kc::lo] =
          slot.pointer_bytes
              ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(slot.pointer_offset))
              : static_cast<std::uint64_t>(-static_cast<std::int64_t>(unbounded));
      words[kc::hi] = slot.pointer_bytes ? slot.pointer_bytes - slot.pointer_offset : unbounded;
      words[kc::flags] = kc::writable;
      break;
    case ArgumentSlot::Kind::scalar:
      break;
  }
}

// The group's other requirements on the buffer of its requirement `index`.
std::vector<std::size_t> other_ranges(const CommandGroup& group, std::size_t index) {
  std::vector<std::size_t> others;
  for (std::size_t r = 0; r < group.requirements.size(); ++r)
    if (r != index && group.requirements[r].storage == group.requirements[index].storage)
      others.push_back(r);
  return others;
}

template <class T>
T field(const std::vector<std::uint64_t>& words, std::size_t at) {
  T value;
  std::memcpy(&value, reinterpret_cast<const std::byte*>(words.data()) + at, sizeof value);
  return value;
}

}  // namespace

KernelCheckBuffer::KernelCheckBuffer(const CommandGroup& group, Device& device, DeviceQueue& queue)
    : group_(group), device_(device) {
  const KernelInfo& info = group.kernel->info();
  std::size_t entries = info.args.size();
  for (const ArgumentSlot& slot : group.arguments)
    if (slot.kind == ArgumentSlot::Kind::accessor) entries += other_ranges(group, slot.requirement).size();
  words_.assign(kc::record_bytes(entries) / 8, 0);
  auto entry = [this](std::size_t index) {
    return words_.data() + (kc::header_bytes + index * kc::argument_bytes) / 8;
  };
  std::size_t next = info.args.size();  // the first further entry
  for (std::size_t i = 0; i < group.arguments.size(); ++i) {
    const ArgumentSlot& slot = group.arguments[i];
    fill(entry(i), slot, group);
    if (slot.kind != ArgumentSlot::Kind::accessor) continue;
    std::uint64_t* previous = entry(i);
    for (std::size_t other : other_ranges(group, slot.requirement)) {
      fill_range(entry(next), group.requirements[other]);
      previous[kc::next] = next;
      previous = entry(next++);
    }
  }
  allocation_ = device.allocate(words_.size() * 8);
  queue.copy_to_device(allocation_, words_.data(), CopyLayout::contiguous(0, words_.size() * 8));
}

KernelCheckBuffer::~KernelCheckBuffer() {
  if (allocation_) device_.deallocate(allocation_);
}

void KernelCheckBuffer::verify(DeviceQueue& queue) const {
  std::vector<std::uint64_t> header(kc::header_bytes / 8);
  queue.copy_to_host(header.data(), allocation_, CopyLayout::contiguous(0, kc::header_bytes));
  queue.wait();
  if (field<std::uint32_t>(header, kc::violated_at) == 0) return;
  const KernelInfo& info = group_.kernel->info();
  const auto argument = field<std::uint32_t>(header, kc::argument_at);
  const auto offset = field<std::int64_t>(header, kc::offset_at);
  const auto bytes = field<std::uint64_t>(header, kc::size_at);
  const auto kind = field<std::uint32_t>(header, kc::kind_at);
  std::string item = "(";
  for (std::size_t d = 0; d < 3; ++d)
    item += (d ? ", " : "") + std::to_string(field<std::uint64_t>(header, kc::global_id_at + 8 * d));
  item += ")";
  const std::string access = kind == kc::read_only_store ? "stored to" : "accessed";
  std::string message = "checked kernel '" + info.name + "': work-item " + item + " ";
  if (argument == kc::no_argument || argument >= group_.arguments.size()) {
    message += access + " bytes [" + std::to_string(offset) + ", " +
               std::to_string(offset + static_cast<std::int64_t>(bytes)) +
               ") of a __local variable of the kernel, outside its " +
               std::to_string(field<std::uint64_t>(header, kc::variable_bytes_at)) + " bytes";
    throw error(error_category::invalid_argument, message);
  }
  const ArgumentSlot& slot = group_.arguments[argument];
  message += "argument " + std::to_string(argument + 1) + " ('" + info.args[argument].name + "'): ";
  if (slot.kind == ArgumentSlot::Kind::accessor) {
    const Requirement& requirement = group_.requirements[slot.requirement];
    const BufferDesc& desc = requirement.storage->desc();
    const int dimensions = requirement.storage->dimensions();
    const auto element = offset >= 0 ? offset / static_cast<std::int64_t>(desc.element_size)
                                     : -((-offset + static_cast<std::int64_t>(desc.element_size) - 1) /
                                         static_cast<std::int64_t>(desc.element_size));
    message += access + " element " + std::to_string(element) + " (bytes [" +
               std::to_string(offset) + ", " +
               std::to_string(offset + static_cast<std::int64_t>(bytes)) + ") from the buffer's start)";
    if (element >= 0 && dimensions > 1 &&
        static_cast<std::uint64_t>(element) < desc.extent[0] * desc.extent[1] * desc.extent[2]) {
      const auto e = static_cast<std::size_t>(element);
      const Extent3 index{e / (desc.extent[1] * desc.extent[2]), e / desc.extent[2] % desc.extent[1],
                          e % desc.extent[2]};
      message += ", index " + triple(index, dimensions);
    }
    const AccessRange& range = requirement.range;
    const std::size_t others = other_ranges(group_, slot.requirement).size();
    message += kind == kc::read_only_store ? ", through a read-only accessor"
                                           : ", outside the accessor's range";
    if (others > 0)
      message += " and the " + std::to_string(others) + " other range" + (others > 1 ? "s" : "") +
                 " of this buffer the command group declared";
    message += " (offset " + triple(range.offset, dimensions) + ", extent " +
               triple(range.extent, dimensions) + " of a buffer of " +
               triple(desc.extent, dimensions) + " elements of " +
               std::to_string(desc.element_size) + " bytes)";
  } else if (slot.kind == ArgumentSlot::Kind::pointer) {
    message += access + " bytes [" + std::to_string(offset) + ", " +
               std::to_string(offset + static_cast<std::int64_t>(bytes)) +
               ") from the pointer, outside its " + (slot.usm ? "USM" : "buffer") +
               " allocation of " + std::to_string(slot.pointer_bytes) + " bytes (the pointer is " +
               std::to_string(slot.pointer_offset) + " bytes into it)";
  } else {
    message += access + " bytes [" + std::to_string(offset) + ", " +
               std::to_string(offset + static_cast<std::int64_t>(bytes)) + ") outside its " +
               std::to_string(slot.local_bytes) + " bytes of local memory";
  }
  throw error(error_category::invalid_argument, message);
}

}  // namespace plexus::detail
