#include "buffer_copies.hpp"

#include "buffer_storage.hpp"
#include "copy_layout_shape.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "runtime_state.hpp"
#include "staged_copy.hpp"
#include "trace/tracer.hpp"

namespace plexus::detail {

CopyLayout layout_of(const BufferCopy& copy, const BufferDesc& desc) {
  if (copy.contiguous) return CopyLayout::contiguous(copy.byte_offset, copy.bytes);
  const std::size_t element = desc.element_size;
  CopyLayout layout;
  layout.offset = copy.byte_offset;
  layout.row_bytes = copy.box.extent[2] * element;
  layout.rows = copy.box.extent[1];
  layout.slices = copy.box.extent[0];
  layout.row_pitch = desc.extent[2] * element;
  layout.slice_pitch = desc.extent[1] * desc.extent[2] * element;
  return simplest_layout(layout);
}

DeviceQueue& CopyRunner::queue_for(Device* device) {
  if (device == placement_ && queue_) return *queue_;
  auto& queue = others_[device];
  if (!queue) queue = device->create_queue();
  return *queue;
}

void CopyRunner::device_to_device(BufferStorage& buffer, const BufferCopy& copy,
                                  const CopyLayout& layout) {
  Device* source = runtime_.device_at(copy.from);
  Device* target = runtime_.device_at(copy.to);
  const void* from = buffer.allocation(copy.from, runtime_);
  void* to = buffer.allocation(copy.to, runtime_);
  DeviceQueue& target_queue = queue_for(target);
  {
    TraceOpScope traced(TraceOp::Kind::copy_to_device, &target_queue, *target,
                        layout.bytes());
    if (target_queue.copy_from_device(to, *source, from, layout)) {
      runtime_.device_copies.count_direct(layout.bytes());
      // The task's own queue orders it before the launch; traced copies are waited for to
      // time them.
      if (&target_queue != queue_ || current_task_trace) target_queue.wait();
      return;
    }
    traced.cancel();  // no direct path: nothing ran on the target's queue
  }
  Device& stager = source->pins_host_memory() || !target->pins_host_memory() ? *source : *target;
  const StagingPool::Lease lease = runtime_.staging.acquire(stager);
  // Two queues: host times only. Traced as both moves, as the bytes go through the host.
  TraceOpScope read(TraceOp::Kind::copy_to_host, nullptr, *source, layout.bytes());
  TraceOpScope written(TraceOp::Kind::copy_to_device, nullptr, *target, layout.bytes());
  copy_staged(queue_for(source), from, target_queue, to, layout, lease);
  runtime_.device_copies.count_staged(layout.bytes(), stager.pins_host_memory());
}

void CopyRunner::run(BufferStorage& buffer, const BufferCopy& copy) {
  const CopyLayout layout = layout_of(copy, buffer.desc());
  if (copy.from != host_location && copy.to != host_location) {
    device_to_device(buffer, copy, layout);
    return;
  }
  void* host = buffer.host_memory();
  if (copy.from != host_location) {
    Device* source = runtime_.device_at(copy.from);
    DeviceQueue& queue = queue_for(source);
    TraceOpScope traced(TraceOp::Kind::copy_to_host, &queue, *source, layout.bytes());
    queue.copy_to_host(host, buffer.allocation(copy.from, runtime_), layout);
    queue.wait();  // the data must be on the host before anyone goes on
    return;
  }
  Device* target = runtime_.device_at(copy.to);
  DeviceQueue& queue = queue_for(target);
  TraceOpScope traced(TraceOp::Kind::copy_to_device, &queue, *target, layout.bytes());
  queue.copy_to_device(buffer.allocation(copy.to, runtime_), host, layout);
  // The task's own queue orders it before the launch; traced copies are waited for to
  // time them.
  if (&queue != queue_ || current_task_trace) queue.wait();
}

}  // namespace plexus::detail
