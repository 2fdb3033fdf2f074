#include "plexus/handler.hpp"

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

void Handler::begin_kernel(const Kernel& kernel, const NdRange& range) {
  if (group_->kernel || group_->has_host_task || !group_->natives.empty()) {
    throw error(error_category::invalid_argument,
                "a command group holds one command; kernel '" + kernel.name() +
                    "' follows another parallel_for, host_task or native_task in the same submit");
  }
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
  if (bytes == 0) {
    throw error(error_category::invalid_argument,
                "kernel '" + group_->kernel->name() + "', argument " +
                    std::to_string(group_->arguments.size() + 1) + ": local memory of 0 bytes");
  }
  detail::ArgumentSlot slot;
  slot.kind = detail::ArgumentSlot::Kind::local;
  slot.local_bytes = bytes;
  group_->arguments.push_back(std::move(slot));
}

void Handler::add_pointer(void* pointer) {
  const KernelArgInfo& parameter = next_parameter(*group_);
  if (!is_pointer(parameter.kind)) wrong_argument(*group_, parameter, "a pointer");
  detail::ArgumentSlot slot;
  slot.kind = detail::ArgumentSlot::Kind::pointer;
  slot.pointer = pointer;
  group_->arguments.push_back(std::move(slot));
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
  if (group_->kernel || group_->has_host_task || !group_->natives.empty()) {
    throw error(error_category::invalid_argument,
                "a command group holds one command; native task '" + name +
                    "' follows another parallel_for, host_task or native_task in the same submit");
  }
  const auto runtime = detail::RuntimeState::lock(group_->runtime, "a queue");
  group_->device = detail::native_task_device(name, implementations, *group_->device,
                                              group_->device_bound, runtime->devices);
  group_->native_name = std::move(name);
  group_->natives = std::move(implementations);
}

void Handler::set_host_task(std::function<void()> work) {
  if (group_->kernel || group_->has_host_task || !group_->natives.empty()) {
    throw error(error_category::invalid_argument,
                "a command group holds one command; host_task follows another parallel_for, "
                "host_task or native_task in the same submit");
  }
  if (!work) throw error(error_category::invalid_argument, "host_task: the work is empty");
  group_->host_work = std::move(work);
  group_->has_host_task = true;
}

}  // namespace plexus
