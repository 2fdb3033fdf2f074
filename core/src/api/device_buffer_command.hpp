// run_buffer_command_on_device: a buffer command's device form (BufferOnDevice: a copy
// between two accessors, a fill) on the queue of a device with memory of its own, once the
// memory model's plans made the ranges valid there (internal to the core, for CommandBody).
//
// The ranges go row by row (range_rows.hpp: one piece when a range is contiguous); a copy
// between ranges of different shapes, or into a larger destination, goes in the pieces
// where the rows of both meet, over the source's bytes. Each piece is
// DeviceQueue::copy_within / fill_within; when the queue has no such operation (it returns
// false) or a copy's ranges overlap in one allocation, the command goes through host
// memory instead: the source read with copy_to_host, or a filled row, and written with
// copy_to_device; it then waits for the queue. Errors: the queue's, as plexus::error.
// Thread-safety: the caller's thread and queue only.
#pragma once

#include <span>

#include "command_group.hpp"
#include "plexus/memory_model.hpp"

namespace plexus {
class DeviceQueue;
}

namespace plexus::detail {

class RuntimeState;

void run_buffer_command_on_device(DeviceQueue& queue, const BufferOnDevice& command,
                                  std::span<const Requirement> requirements, LocationId location,
                                  RuntimeState& runtime);

}  // namespace plexus::detail
