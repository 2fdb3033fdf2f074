#include "command_body.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "buffer_copies.hpp"
#include "buffer_storage.hpp"
#include "device_buffer_command.hpp"
#include "kernel_check_buffer.hpp"
#include "native_task.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "runtime_state.hpp"
#include "trace/tracer.hpp"

namespace plexus::detail {

CommandBody::CommandBody(RuntimeState& runtime, std::unique_ptr<CommandGroup> group,
                         std::shared_ptr<TaskEvent> event, std::shared_ptr<TaskEvent> record_as)
    : runtime_(runtime), owned_group_(std::move(group)), event_(std::move(event)),
      record_as_(std::move(record_as)) {}

CommandBody::CommandBody(RuntimeState& runtime, CommandGroup group,
                         std::shared_ptr<TaskEvent> event, std::shared_ptr<TaskEvent> record_as)
    : CommandBody(runtime, std::make_unique<CommandGroup>(std::move(group)), std::move(event),
                  std::move(record_as)) {}

CommandBody::~CommandBody() = default;

void CommandBody::check_runnable(const DeviceQueue* queue) const {
  if (!placed_) {
    throw error(error_category::plugin,
                name() + " was run but never placed: the scheduler must call "
                         "plexus::place_task(task, placement) in submit(), in submission "
                         "order, before running the task (plexus/task_execution.hpp)");
  }
  if (runs_on_device() && !placement_) {
    throw error(error_category::plugin,
                name() + " was placed on the host, but a kernel needs a device (so does a native "
                         "task): place it with plexus::place_task(task, device), which checks "
                         "the placement");
  }
  if (placement_ && !queue) {
    throw error(error_category::plugin,
                name() + " is placed on device '" + placement_->info().name +
                    "' but was run without a device queue: pass queues.for_device(placement) "
                    "to run_task_now (or start_task) (plexus/task_execution.hpp)");
  }
}

bool CommandBody::buffer_command_on_device() const {
  return group_.buffer_on_device.kind != BufferOnDevice::Kind::none && group_.device &&
         runtime_.location_of(group_.device) != host_location;
}

bool CommandBody::bound_to_group_device() const {
  if (group_.usm.kind != UsmOperation::Kind::none || buffer_command_on_device()) return true;
  return std::any_of(group_.arguments.begin(), group_.arguments.end(), [](const ArgumentSlot& slot) {
    return slot.kind == ArgumentSlot::Kind::pointer;
  });
}

bool CommandBody::can_run_on(const Device& device) const {
  if (bound_to_group_device() && &device != group_.device) return false;
  if (group_.usm.kind != UsmOperation::Kind::none || buffer_command_on_device()) return true;
  if (group_.kernel) return group_.kernel->available_on(device);
  if (group_.graph) {
    return std::all_of(group_.graph->kernels.begin(), group_.graph->kernels.end(),
                       [&](const GraphKernel& k) { return k.kernel.available_on(device); });
  }
  return implementation_for(group_.natives, device) != nullptr;
}

std::size_t CommandBody::work_items() const {
  if (group_.kernel) return group_.range.global_count();
  std::size_t items = 0;
  if (group_.graph)
    for (const GraphKernel& k : group_.graph->kernels) items += k.range.global_count();
  return items;
}

std::size_t CommandBody::tasks_at_once(const Device& device) const {
  if (group_.kernel || group_.natives.empty() || !device.native_work_on_caller()) return 0;
  return std::max<std::size_t>(1, device.info().compute_units);
}

BufferAccess CommandBody::access_at(std::size_t requirement, LocationId location) const {
  const Requirement& wanted = group_.requirements[requirement];
  return BufferAccess{wanted.storage->id(), wanted.range, wanted.mode, location};
}

std::size_t CommandBody::transfer_bytes(Device* placement) const {
  const LocationId location = runtime_.location_of(placement);
  std::size_t total = 0;
  for (std::size_t i = 0; i < group_.requirements.size(); ++i) {
    total += runtime_.memory().preview(access_at(i, location)).copy_bytes();
  }
  return total;
}

std::vector<InboundTransfer> CommandBody::transfers_in(Device* placement) const {
  const LocationId location = runtime_.location_of(placement);
  std::vector<InboundTransfer> sources;
  for (std::size_t i = 0; i < group_.requirements.size(); ++i) {
    for (const BufferCopy& copy : runtime_.memory().preview(access_at(i, location)).copies) {
      Device* from = runtime_.device_at(copy.from);
      const auto same = std::find_if(sources.begin(), sources.end(),
                                     [&](const InboundTransfer& t) { return t.from == from; });
      if (same != sources.end()) {
        same->bytes += copy.bytes;
      } else {
        sources.push_back({from, copy.bytes});
      }
    }
  }
  return sources;
}

std::vector<std::shared_ptr<TaskEvent>> CommandBody::preview_dependencies(
    Device* placement) const {
  const LocationId location = runtime_.location_of(placement);
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  for (std::size_t i = 0; i < group_.requirements.size(); ++i) {
    for (auto& dependency : runtime_.memory().preview(access_at(i, location)).dependencies) {
      if (std::find(dependencies.begin(), dependencies.end(), dependency) == dependencies.end()) {
        dependencies.push_back(std::move(dependency));
      }
    }
  }
  return dependencies;
}

std::vector<std::shared_ptr<TaskEvent>> CommandBody::place(
    Device* placement, const std::shared_ptr<TaskEvent>& event) {
  placement_ = placement;
  placed_ = true;
  location_ = runtime_.location_of(placement);
  if (group_.kernel) module_ = group_.kernel->module_on(*placement);
  if (group_.graph) {
    graph_modules_.clear();
    for (const GraphKernel& k : group_.graph->kernels)
      graph_modules_.push_back(k.kernel.module_on(*placement));
  }
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  const auto& recorded = record_as_ ? record_as_ : event;
  if (group_.requirements.size() > 1) more_plans_.reserve(group_.requirements.size() - 1);
  for (std::size_t i = 0; i < group_.requirements.size(); ++i) {
    AccessPlan recorded_plan = runtime_.memory().record(access_at(i, location_), recorded);
    AccessPlan& plan = i == 0 ? (first_plan_ = std::move(recorded_plan))
                              : more_plans_.emplace_back(std::move(recorded_plan));
    ++planned_;
    // The plans keep only the allocation and the copies (stage()): take the dependencies.
    if (dependencies.empty()) {
      dependencies = std::move(plan.dependencies);
    } else {
      for (auto& dependency : plan.dependencies) {
        if (std::find(dependencies.begin(), dependencies.end(), dependency) == dependencies.end()) {
          dependencies.push_back(std::move(dependency));
        }
      }
    }
    plan.dependencies.clear();
    const Requirement& wanted = group_.requirements[i];
    const bool whole = wanted.range.offset == Extent3{0, 0, 0} &&
                       wanted.range.extent == wanted.storage->desc().extent;
    if (auto failed = wanted.storage->add_user(event, wanted.mode, whole);
        failed && std::find(dependencies.begin(), dependencies.end(), failed) == dependencies.end()) {
      dependencies.push_back(std::move(failed));  // a failed write: this access fails too
    }
  }
  return dependencies;
}

void CommandBody::run(DeviceQueue* queue) {
  check_runnable(queue);
  stage(queue);
  if (runs_on_device()) {
    start_work(*queue);
    queue->wait();
    if (checks_) std::unique_ptr<KernelCheckBuffer>(std::move(checks_))->verify(*queue);
  } else {
    if (queue) queue->wait();  // copies enqueued on a device queue (none for host bodies)
    if (group_.host_work) group_.host_work();
    if (group_.buffer_work) group_.buffer_work(group_.requirements);
  }
}

void CommandBody::stage(DeviceQueue* queue) {
  CopyRunner copies(runtime_, placement_, queue);
  for (std::size_t i = 0; i < planned_; ++i) {
    BufferStorage& buffer = *group_.requirements[i].storage;
    const AccessPlan& plan = i == 0 ? first_plan_ : more_plans_[i - 1];
    if (plan.allocate) buffer.allocation(location_, runtime_);
    for (const auto& copy : plan.copies) copies.run(buffer, copy);
  }
}

bool CommandBody::enqueue(DeviceQueue* queue) {
  // A checked kernel's record is read back once it has run: it runs to the end here.
  if (!runs_on_device() || !queue || (group_.kernel && group_.kernel->info().bounds_checked) ||
      group_.usm.kind != UsmOperation::Kind::none || buffer_command_on_device()) {
    run(queue);
    return false;
  }
  check_runnable(queue);
  stage(queue);
  start_work(*queue);
  return true;
}

void CommandBody::start_work(DeviceQueue& queue) {
  if (group_.usm.kind != UsmOperation::Kind::none) {
    run_usm(queue);
  } else if (buffer_command_on_device()) {
    TraceOpScope traced(TraceOp::Kind::copy_to_device, &queue, *placement_, 0, name());
    run_buffer_command_on_device(queue, group_.buffer_on_device, group_.requirements, location_,
                                 runtime_);
  } else if (group_.kernel) {
    launch(queue);
  } else if (group_.graph) {
    launch_graph(queue);
  } else {
    enqueue_native_task(group_.native_name, group_.natives, *placement_, queue, *this);
  }
}

NativeHandle CommandBody::memory(const BufferStorage* storage, std::size_t requirement) const {
  if (storage && (requirement >= planned_ || group_.requirements[requirement].storage.get() != storage)) {
    throw error(error_category::invalid_argument,
                "native task '" + group_.native_name +
                    "': native_memory() was given an accessor of another command group; use "
                    "the accessors made in this task's command group");
  }
  return placement_->native_memory(allocation(requirement));
}

void* CommandBody::allocation(std::size_t requirement) const {
  if (requirement >= planned_) {
    throw error(error_category::invalid_argument,
                "native task '" + group_.native_name + "': native_memory(" +
                    std::to_string(requirement) + "): the task has " + std::to_string(planned_) +
                    " accessor(s), numbered from 0 in the order its command group made them");
  }
  return group_.requirements[requirement].storage->allocation(location_, runtime_);
}

std::size_t CommandBody::bytes(std::size_t requirement) const {
  allocation(requirement);  // the same refusal of an index past the accessors
  return group_.requirements[requirement].storage->bytes();
}

void CommandBody::fill_arguments(const ArgumentSlots& slots,
                                 std::span<KernelArgument> arguments) const {
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const ArgumentSlot& slot = slots[i];
    switch (slot.kind) {
      case ArgumentSlot::Kind::accessor:
        arguments[i] = KernelArgument::of_allocation(
            group_.requirements[slot.requirement].storage->allocation(location_, runtime_));
        break;
      case ArgumentSlot::Kind::scalar:
        arguments[i] = KernelArgument::of_scalar(slot.value.data(), slot.value.size());
        break;
      case ArgumentSlot::Kind::local:
        arguments[i] = KernelArgument::of_local(slot.local_bytes);
        break;
      case ArgumentSlot::Kind::pointer:
        arguments[i] = slot.usm ? KernelArgument::of_usm(slot.pointer)
                                : KernelArgument::of_allocation(slot.pointer);
        break;
    }
  }
}

void CommandBody::run_usm(DeviceQueue& queue) {
  const UsmOperation& usm = group_.usm;
  TraceOpScope traced(usm.to_host ? TraceOp::Kind::copy_to_host : TraceOp::Kind::copy_to_device,
                      &queue, *placement_, usm.bytes, name());
  if (usm.kind == UsmOperation::Kind::copy) {
    queue.usm_copy(usm.destination, usm.source, usm.bytes);
    return;
  }
  if (queue.usm_fill(usm.destination, usm.pattern.data(), usm.pattern.size(), usm.bytes)) return;
  // No native fill for this pattern: a filled host block, copied (run() waits for it).
  std::vector<std::byte> block(usm.bytes);
  for (std::size_t at = 0; at < usm.bytes; at += usm.pattern.size())
    std::copy(usm.pattern.begin(), usm.pattern.end(),
              block.begin() + static_cast<std::ptrdiff_t>(at));
  queue.usm_copy(usm.destination, block.data(), usm.bytes);
  queue.wait();
}

void CommandBody::launch(DeviceQueue& queue) {
  TraceOpScope traced(TraceOp::Kind::launch, &queue, *placement_, 0,
                      group_.kernel->name());
  // The usual few arguments on the stack, more on the heap.
  constexpr std::size_t on_stack = 16;
  std::array<KernelArgument, on_stack> few;
  const bool checked = group_.kernel->info().bounds_checked;
  const std::size_t count = group_.arguments.size() + (checked ? 1 : 0);
  std::vector<KernelArgument> many(count > on_stack ? count : 0);
  const std::span<KernelArgument> arguments =
      many.empty() ? std::span<KernelArgument>(few.data(), count)
                   : std::span<KernelArgument>(many);
  fill_arguments(group_.arguments, arguments.first(group_.arguments.size()));
  if (checked) {  // the check record, the hidden last argument
    checks_ = std::make_unique<KernelCheckBuffer>(group_, *placement_, queue);
    arguments[count - 1] = checks_->argument();
  }
  const DeviceKernel& kernel = module_->kernel(group_.kernel->name());
  traced.range(group_.range);
  queue.launch(kernel, group_.range, arguments);
}

void CommandBody::launch_graph(DeviceQueue& queue) {
  const std::vector<GraphKernel>& kernels = group_.graph->kernels;
  for (const GraphKernel& k : kernels)
    if (k.kernel.info().bounds_checked)
      throw error(error_category::unsupported,
                  "kernel '" + k.kernel.name() + "' is bounds-checked (checks = \"bounds\"): "
                  "checked kernels do not run in command graphs; submit it outside the graph, "
                  "or build without checks");
  std::size_t total = 0;
  for (const GraphKernel& k : kernels) total += k.arguments.size();
  std::vector<KernelArgument> arguments(total);
  std::vector<GraphLaunch> launches(kernels.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::span<KernelArgument> mine(arguments.data() + at, kernels[i].arguments.size());
    fill_arguments(kernels[i].arguments, mine);
    launches[i] = {&graph_modules_[i]->kernel(kernels[i].kernel.name()), kernels[i].range, mine};
    at += mine.size();
  }
  DeviceGraph* recorded = runtime_.device_graphs.get(
      group_.graph->owner.get(), queue, [&] { return queue.record_graph(launches); });
  if (recorded) {
    const std::string label = active_tracer() ? "graph of " + std::to_string(kernels.size()) +
                                                    " kernels, replayed: " + name()
                                              : std::string();
    TraceOpScope traced(TraceOp::Kind::launch, &queue, *placement_, 0, label);
    if (!label.empty())
      for (const GraphKernel& k : kernels) traced.node(k.kernel.name(), k.range);
    queue.launch_graph(*recorded, launches);
    return;
  }
  for (const GraphLaunch& launch : launches) {  // no capability: the same launches in order
    TraceOpScope traced(TraceOp::Kind::launch, &queue, *placement_, 0,
                        launch.kernel->info().name);
    traced.range(launch.range);
    queue.launch(*launch.kernel, launch.range, launch.arguments);
  }
}

}  // namespace plexus::detail
