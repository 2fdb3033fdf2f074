#include "buffer_copies.hpp"

#include "buffer_storage.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "runtime_state.hpp"
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
  return layout;
}

DeviceQueue& CopyRunner::queue_for(Device* device) {
  if (device == placement_ && queue_) return *queue_;
  auto& queue = others_[device];
  if (!queue) queue = device->create_queue();
  return *queue;
}

void CopyRunner::run(BufferStorage& buffer, const BufferCopy& copy) {
  const CopyLayout layout = layout_of(copy, buffer.desc());
  void* host = buffer.host_memory();
  if (copy.from != host_location) {
    Device* source = runtime_.device_at(copy.from);
    DeviceQueue& queue = queue_for(source);
    TraceOpScope traced(TraceOp::Kind::copy_to_host, &queue, source->info().name, layout.bytes());
    queue.copy_to_host(host, buffer.allocation(copy.from, runtime_), layout);
    queue.wait();  // the data must be on the host before anyone goes on
  }
  if (copy.to != host_location) {
    Device* target = runtime_.device_at(copy.to);
    DeviceQueue& queue = queue_for(target);
    TraceOpScope traced(TraceOp::Kind::copy_to_device, &queue, target->info().name, layout.bytes());
    queue.copy_to_device(buffer.allocation(copy.to, runtime_), host, layout);
    // The task's own queue orders it before the launch; traced copies are waited for to
    // time them.
    if (&queue != queue_ || current_task_trace) queue.wait();
  }
}

}  // namespace plexus::detail
