#include "plexus/handler.hpp"

#include <cstring>
#include <memory>

#include "bundle_state.hpp"
#include "buffer_storage.hpp"
#include "command_group.hpp"
#include "demangle.hpp"
#include "native_task.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/warn_once.hpp"
#include "runtime_state.hpp"
#include "usm_registry.hpp"

namespace plexus {

namespace {

std::string_view kind_name(KernelArgKind kind) {
  switch (kind) {
    case KernelArgKind::global_pointer: return "a __global pointer (pass an accessor)";
    case KernelArgKind::constant_pointer: return "a __constant pointer (pass an accessor)";
    case KernelArgKind::local_pointer: return "a __local pointer (pass plexus::local<T>(n))";
    case KernelArgKind::scalar: return "a scalar";
    case KernelArgKind::sampler: return "a sampler";
    case KernelArgKind::image: return "an image";
  }
  return "?";
}

}  // namespace

Handler::Handler(std::unique_ptr<detail::CommandGroup> group) : group_(std::move(group)) {}
Handler::~Handler() = default;

std::size_t Handler::add_requirement(const Requirement& requirement) {
  requirement.storage->bind(group_->runtime, "an accessor");
  group_->requirements.push_back(requirement);
  return group_->requirements.size() - 1;
}

void Handler::depends_on(const Event& event) {
  if (event.task_event()) group_->dependencies.push_back(event.task_event());
}

void Handler::check_no_command(const std::string& what) const {
  if (group_->has_command())
    throw error(error_category::invalid_argument,
                "a command group holds one command; " + what +
                    " follows another command (parallel_for, host_task, native_task, memcpy, "
                    "memset, fill, copy or update_host) in the same submit");
}

void Handler::begin_kernel(const Kernel& kernel, const NdRange& range) {
  check_no_command("kernel '" + kernel.name() + "'");
  auto what = [&kernel] { return "kernel '" + kernel.name() + "'"; };  // for errors only
  if (kernel.bundle()->runtime.owner_before(group_->runtime) ||
      group_->runtime.owner_before(kernel.bundle()->runtime)) {
    throw error(error_category::invalid_argument,
                what() + " was built by another plexus::Runtime than this queue's");
  }
  if (!kernel.available_on(*group_->device)) {
    throw error(error_category::invalid_argument,
                what() + " is not loaded on device '" + group_->device->info().name +
                    "' (its bundle is loaded on: " + kernel.bundle()->device_names() + ")");
  }
  validate(range, what);
  group_->kernel = kernel;
  group_->range = range;
}

namespace {

const KernelArgInfo& next_parameter(const detail::CommandGroup& group) {
  const KernelInfo& info = group.kernel->info();
  const std::size_t index = group.arguments.size();
  if (index >= info.user_arg_count()) {
    throw error(error_category::invalid_argument,
                "kernel '" + info.name + "' takes " + std::to_string(info.user_arg_count()) +
                    " arguments; argument " + std::to_string(index + 1) + " is one too many");
  }
  return info.args[index];
}

[[noreturn]] void wrong_argument(const detail::CommandGroup& group, const KernelArgInfo& parameter,
                                 const std::string& given) {
  throw error(error_category::invalid_argument,
              "kernel '" + group.kernel->name() + "', argument " +
                  std::to_string(group.arguments.size() + 1) + " ('" + parameter.name +
                  "'): expected " + std::string(kind_name(parameter.kind)) +
                  (parameter.kind == KernelArgKind::scalar
                       ? " of " + std::to_string(parameter.size) + " bytes"
                       : std::string()) +
                  ", got " + given);
}

// A scalar argument (`parameter`: the GraphParameter it comes from, or nullptr).
void push_scalar(detail::CommandGroup& group, const void* value, std::size_t size,
                 const char* type_name, std::shared_ptr<detail::ParameterValue> parameter) {
  const KernelArgInfo& expected = next_parameter(group);
  if (expected.kind != KernelArgKind::scalar || expected.size != size) {
    wrong_argument(group, expected,
                   "a value of " + std::to_string(size) + " bytes (type " +
                       detail::demangle(type_name) + (parameter ? ", a GraphParameter" : "") + ")");
  }
  detail::ArgumentSlot slot;
  slot.kind = detail::ArgumentSlot::Kind::scalar;
  const auto* bytes = static_cast<const std::byte*>(value);
  slot.value.assign(bytes, bytes + size);
  slot.parameter = std::move(parameter);
  group.arguments.push_back(std::move(slot));
}

bool is_pointer(KernelArgKind kind) {
  return kind == KernelArgKind::global_pointer || kind == KernelArgKind::constant_pointer;
}

}  // namespace

void Handler::add_accessor(const Handler* owner, std::size_t requirement) {
  const KernelArgInfo& parameter = next_parameter(*group_);
  if (owner != this) {
    throw error(error_category::invalid_argument,
                "kernel '" + group_->kernel->name() + "', argument " +
                    std::to_string(group_->arguments.size() + 1) +
                    ": the accessor was made for another command group's handler");
  }
  if (!is_pointer(parameter.kind)) wrong_argument(*group_, parameter, "an accessor");
  if (parameter.written && group_->requirements[requirement].mode == AccessMode::read) {
    warn_once("kernel '" + group_->kernel->name() + "', argument " +
              std::to_string(group_->arguments.size() + 1) + " ('" + parameter.name +
              "'): a read accessor, but the kernel stores through this parameter; its writes "
              "may be lost or seen by other tasks unordered (use read_write or write)");
  }
  detail::ArgumentSlot slot;
  slot.kind = detail::ArgumentSlot::Kind::accessor;
  slot.requirement = requirement;
  group_->arguments.push_back(std::move(slot));
}

void Handler::add_scalar(const void* value, std::size_t size, const char* type_name) {
  push_scalar(*group_, value, size, type_name, nullptr);
}

void Handler::add_parameter(const std::shared_ptr<detail::ParameterValue>& value,
                            std::size_t size, const char* type_name) {
  std::vector<std::byte> current(size);
  detail::load_parameter_value(*value, current.data(), size);
  push_scalar(*group_, current.data(), size, type_name, value);
}

void Handler::add_local(std::size_t bytes) {
  const KernelArgInfo& parameter = next_parameter(*group_);
  if (parameter.kind != KernelArgKind::local_pointer) {
    wrong_argument(*group_, parameter, "local memory");
  }
  const auto where = [&] {
    return "kernel '" + group_->kernel->name() + "', argument " +
           std::to_string(group_->arguments.size() + 1) + " ('" + parameter.name + "')";
  };
  if (bytes == 0) {
    throw error(error_category::invalid_argument, where() + ": local memory of 0 bytes");
  }
  // What the queue's device gives a work-group at most, for all __local arguments together
  // (the kernel's own __local variables are the backend's to add).
  std::size_t total = bytes;
  for (const detail::ArgumentSlot& earlier : group_->arguments)
    if (earlier.kind == detail::ArgumentSlot::Kind::local) total += earlier.local_bytes;
  const DeviceInfo& device = group_->device->info();
  if (group_->device_bound && device.local_memory_bytes > 0 && total > device.local_memory_bytes) {
    throw error(error_category::invalid_argument,
                where() + ": " + std::to_string(bytes) + " bytes of local memory" +
                    (total > bytes ? " (" + std::to_string(total) + " with the others)" : "") +
                    ", more than the " + std::to_string(device.local_memory_bytes) +
                    " a work-group has on device '" + device.name + "'");
  }
  detail::ArgumentSlot slot;
  slot.kind = detail::ArgumentSlot::Kind::local;
  slot.local_bytes = bytes;
  group_->arguments.push_back(std::move(slot));
}

void Handler::add_pointer(void* pointer) {
  const KernelArgInfo& parameter = next_parameter(*group_);
  if (!is_pointer(parameter.kind)) wrong_argument(*group_, parameter, "a pointer");
  const auto where = [&] {
    return "kernel '" + group_->kernel->name() + "', argument " +
           std::to_string(group_->arguments.size() + 1) + " ('" + parameter.name + "'): ";
  };
  const auto runtime = detail::RuntimeState::lock(group_->runtime, "a queue");
  const auto found = runtime->usm.find(pointer);
  if (!found)
    throw error(error_category::invalid_argument,
                where() + "the pointer " + detail::address_text(pointer) +
                    " is not USM memory of this runtime (malloc_device, malloc_host, "
                    "malloc_shared) nor a Buffer's device_pointer: freed already, plain host "
                    "memory, or of another runtime");
  if (!found->usable_on(*group_->device))
    throw error(error_category::invalid_argument,
                where() + "the pointer " + detail::address_text(pointer) + " is " +
                    (found->buffer ? std::string("a buffer's device_pointer")
                                   : "a USM " + std::string(to_string(found->kind)) +
                                         " allocation") +
                    " of device '" + found->device->info().name + "'; the kernel runs on device '" +
                    group_->device->info().name + "'");
  detail::ArgumentSlot slot;
  slot.kind = detail::ArgumentSlot::Kind::pointer;
  slot.pointer = pointer;
  slot.usm = !found->buffer;
  slot.pointer_offset = static_cast<std::size_t>(static_cast<std::byte*>(pointer) -
                                                 static_cast<std::byte*>(found->base));
  slot.pointer_bytes = found->bytes;
  group_->arguments.push_back(std::move(slot));
}

namespace {

// Checks one pointer of a USM command: true when the host reaches the memory (USM host or
// shared, memory of a host-sharing device, or memory the runtime does not know, taken as
// plain host memory); false for device memory of the group's device.
bool check_usm_operand(const detail::CommandGroup& group, const detail::RuntimeState& runtime,
                       const void* pointer, std::size_t bytes, const char* command,
                       const char* role) {
  const std::string what = std::string(command) + " of " + std::to_string(bytes) + " bytes: the " +
                           role + " " + detail::address_text(pointer);
  if (!pointer) throw error(error_category::invalid_argument, what + " is null");
  const auto found = runtime.usm.find(pointer);
  if (!found) return true;
  if (found->buffer)
    throw error(error_category::invalid_argument,
                what + " is a Buffer's device_pointer; use an accessor's copy or fill instead");
  const std::size_t offset =
      static_cast<const std::byte*>(pointer) - static_cast<const std::byte*>(found->base);
  if (bytes > found->bytes - offset)
    throw error(error_category::invalid_argument,
                what + " is " + std::to_string(offset) + " bytes into a USM " +
                    std::string(to_string(found->kind)) + " allocation of " +
                    std::to_string(found->bytes) + " bytes: the range runs past its end");
  if (found->host_accessible()) return true;
  if (found->device != group.device)
    throw error(error_category::invalid_argument,
                what + " is a USM device allocation of device '" + found->device->info().name +
                    "', not of this queue's device '" + group.device->info().name + "'");
  return false;
}

}  // namespace

void Handler::memcpy(void* destination, const void* source, std::size_t bytes) {
  check_no_command("memcpy");
  if (bytes == 0) return;
  const auto runtime = detail::RuntimeState::lock(group_->runtime, "a queue");
  const bool host_destination =
      check_usm_operand(*group_, *runtime, destination, bytes, "memcpy", "destination");
  const bool host_source = check_usm_operand(*group_, *runtime, source, bytes, "memcpy", "source");
  group_->command = "memcpy";
  if (host_destination && host_source) {
    group_->host_work = [destination, source, bytes] { std::memmove(destination, source, bytes); };
    group_->has_host_task = true;
    return;
  }
  group_->usm.kind = detail::UsmOperation::Kind::copy;
  group_->usm.destination = destination;
  group_->usm.source = source;
  group_->usm.bytes = bytes;
  group_->usm.to_host = host_destination;
}

void Handler::memset(void* pointer, int value, std::size_t bytes) {
  const auto byte = static_cast<unsigned char>(value);
  fill_usm(pointer, &byte, 1, bytes);
  if (group_->command) group_->command = "memset";
}

void Handler::fill_usm(void* pointer, const void* pattern, std::size_t pattern_size,
                       std::size_t count) {
  check_no_command("fill");
  if (count == 0) return;
  const std::size_t bytes = pattern_size * count;
  const auto runtime = detail::RuntimeState::lock(group_->runtime, "a queue");
  const bool host = check_usm_operand(*group_, *runtime, pointer, bytes, "fill", "destination");
  group_->command = "fill";
  const auto* first = static_cast<const std::byte*>(pattern);
  if (host) {
    std::vector<std::byte> element(first, first + pattern_size);
    group_->host_work = [pointer, element = std::move(element), count] {
      auto* to = static_cast<std::byte*>(pointer);
      if (element.size() == 1) {
        std::memset(to, std::to_integer<int>(element[0]), count);
        return;
      }
      for (std::size_t i = 0; i < count; ++i)
        std::memcpy(to + i * element.size(), element.data(), element.size());
    };
    group_->has_host_task = true;
    return;
  }
  group_->usm.kind = detail::UsmOperation::Kind::fill;
  group_->usm.destination = pointer;
  group_->usm.bytes = bytes;
  group_->usm.pattern.assign(first, first + pattern_size);
}

void Handler::end_kernel() {
  const KernelInfo& info = group_->kernel->info();
  if (group_->arguments.size() != info.user_arg_count()) {
    const KernelArgInfo& missing = info.args[group_->arguments.size()];
    std::string message = "kernel '" + info.name + "' takes " + std::to_string(info.user_arg_count()) +
                          " arguments, " + std::to_string(group_->arguments.size()) +
                          " given; the next is '" + missing.name + "', " +
                          std::string(kind_name(missing.kind));
    group_->kernel.reset();
    group_->arguments.clear();
    throw error(error_category::invalid_argument, message);
  }
}

void Handler::native_task(std::string name, std::vector<NativeImplementation> implementations) {
  check_no_command("native task '" + name + "'");
  const auto runtime = detail::RuntimeState::lock(group_->runtime, "a queue");
  group_->device = detail::native_task_device(name, implementations, *group_->device,
                                              group_->device_bound, runtime->devices);
  group_->native_name = std::move(name);
  group_->natives = std::move(implementations);
}

void Handler::set_host_task(std::function<void()> work) {
  check_no_command("host_task");
  if (!work) throw error(error_category::invalid_argument, "host_task: the work is empty");
  group_->host_work = std::move(work);
  group_->has_host_task = true;
}

}  // namespace plexus
