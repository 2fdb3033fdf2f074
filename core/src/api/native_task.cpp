#include "native_task.hpp"

#include <algorithm>

#include "demangle.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/native_enqueue.hpp"
#include "trace/tracer.hpp"

namespace plexus {

namespace {
// InteropHandle's refusal of a wrong handle type: already names the task, so the task's
// failure is this error as it is (other errors from an implementation get the task's name).
class InteropRefusal final : public error {
 public:
  using error::error;
};
}  // namespace

InteropHandle::Memory::~Memory() = default;

void InteropHandle::refuse(const NativeHandle& handle, const std::type_info& asked,
                           const char* what) const {
  std::string message = "native task '" + task_ + "' on '" + device_.info().name + "' (" +
                        std::string(handles_.backend) + "): " + what + "<" +
                        detail::demangle(asked.name()) + ">(): ";
  if (!handle.present()) {
    message += "the " + std::string(handles_.backend) + " backend has no such native object";
  } else {
    message += "the backend's type is '" + detail::demangle(handle.type->name()) + "'" +
               (handle.any_pointer_type ? " (any object pointer type may be asked for)" : "") +
               "; ask for that type, or std::uintptr_t for the raw value";
  }
  throw InteropRefusal(error_category::invalid_argument, message);
}

void InteropHandle::require_memory(std::size_t accessor, std::size_t count,
                                   std::size_t element_size, std::string_view what) const {
  const std::size_t bytes = memory_.bytes(accessor);
  if (element_size == 0 || count <= bytes / element_size) return;
  throw error(error_category::invalid_argument,
              std::string(what) + " needs " + std::to_string(count) + " x " +
                  std::to_string(element_size) + " bytes of accessor " + std::to_string(accessor) +
                  ", whose memory on '" + device_.info().name + "' has " + std::to_string(bytes) +
                  " bytes");
}

void enqueue_native_work(const std::string& task, const std::function<int(InteropHandle&)>& run,
                         Device& device, DeviceQueue& queue, const InteropHandle::Memory& memory,
                         const std::function<std::string()>& describe) {
  struct Call {
    const std::string& task;
    Device& device;
    const InteropHandle::Memory& memory;
    const std::function<int(InteropHandle&)>& run;
    int code = 0;
  } call{task, device, memory, run};
  std::exception_ptr failure;
  try {
    // One pointer captured: the std::function holds it in place (no allocation).
    queue.enqueue_native([state = &call](const NativeHandles& handles) {
      InteropHandle handle(state->task, state->device, handles, state->memory);
      state->code = state->run(handle);
    });
    if (call.code == 0) return;
    failure = std::make_exception_ptr(
        error(error_category::device, describe() + " returned error code " + std::to_string(call.code)));
  } catch (const InteropRefusal&) {
    failure = std::current_exception();
  } catch (const error& problem) {
    failure = std::make_exception_ptr(error(problem.category(), describe() + " failed: " + problem.what()));
  } catch (const std::exception& problem) {
    failure = std::make_exception_ptr(error(error_category::device, describe() + " failed: " + problem.what()));
  } catch (...) {
    failure = std::make_exception_ptr(
        error(error_category::device, describe() + " failed with an exception that is not a std::exception"));
  }
  try {
    queue.wait();  // what the implementation enqueued before failing may still use the memory
  } catch (...) {
    // the task fails with its own failure
  }
  std::rethrow_exception(failure);
}

namespace detail {

namespace {

std::string offered(const std::vector<NativeImplementation>& implementations) {
  std::string names;
  for (const auto& implementation : implementations) {
    names += (names.empty() ? "'" : ", '") + implementation.backend + "'";
  }
  return names;
}

std::string backend_of(const Device& device) {
  const std::string_view backend = device.native_backend();
  if (backend.empty()) return "a backend without native tasks";
  if (!device.runs_native_closures())
    return "backend '" + std::string(backend) +
           "' in another process, where only native functions registered by name run "
           "(plexus::NativeFunction, native_function.hpp), not closures";
  return "backend '" + std::string(backend) + "'";
}

}  // namespace

const NativeImplementation* implementation_for(const std::vector<NativeImplementation>& implementations,
                                               const Device& device) {
  const std::string_view backend = device.native_backend();
  if (backend.empty()) return nullptr;
  for (const auto& implementation : implementations) {
    if (implementation.backend != backend) continue;
    // A closure cannot run on a device of another process; a registered function can.
    return implementation.call || device.runs_native_closures() ? &implementation : nullptr;
  }
  return nullptr;
}

Device* native_task_device(const std::string& name,
                           const std::vector<NativeImplementation>& implementations,
                           Device& queue_device, bool bound, const std::vector<Device*>& devices) {
  if (name.empty()) {
    throw error(error_category::invalid_argument, "native_task: give the task a name");
  }
  const auto task = [&] { return "native task '" + name + "'"; };  // for errors only
  if (implementations.empty()) {
    throw error(error_category::invalid_argument, task() + ": no implementation given");
  }
  for (auto it = implementations.begin(); it != implementations.end(); ++it) {
    const NativeImplementation& implementation = *it;
    if (implementation.backend.empty() || !implementation.run) {
      throw error(error_category::invalid_argument,
                  task() + ": an implementation without a backend name or without a callable");
    }
    if (std::any_of(implementations.begin(), it,
                    [&](const auto& earlier) { return earlier.backend == implementation.backend; })) {
      throw error(error_category::invalid_argument,
                  task() + ": two implementations for backend '" + implementation.backend + "'");
    }
  }
  if (implementation_for(implementations, queue_device)) return &queue_device;
  if (!bound) {
    const auto found = std::find_if(devices.begin(), devices.end(), [&](const Device* device) {
      return implementation_for(implementations, *device) != nullptr;
    });
    if (found != devices.end()) return *found;
    std::string available;
    for (const Device* device : devices) {
      available += (available.empty() ? "'" : ", '") + device->info().name + "' (" +
                   backend_of(*device) + ")";
    }
    throw error(error_category::unsupported,
                task() + " offers implementations for " + offered(implementations) +
                    ", but no device of this runtime has one of those backends (devices: " +
                    available + ")");
  }
  throw error(error_category::unsupported,
              task() + " has no implementation for device '" + queue_device.info().name + "' (" +
                  backend_of(queue_device) + ") that its queue is bound to; it offers " +
                  offered(implementations) +
                  ": add one, or submit it to a queue of a device with one of those backends");
}

void enqueue_native_task(const std::string& name,
                         const std::vector<NativeImplementation>& implementations, Device& device,
                         DeviceQueue& queue, const InteropHandle::Memory& memory) {
  const NativeImplementation* implementation = implementation_for(implementations, device);
  if (!implementation) {
    throw error(error_category::internal, "native task '" + name + "' was placed on device '" +
                                              device.info().name + "' (" + backend_of(device) +
                                              "), which has no implementation of it");
  }
  // Names are built only for a trace or an error: the path of a task allocates nothing here.
  const auto task = [&] {
    return "native task '" + name + "' (" +
           (implementation->call ? "function '" + implementation->call->function + "', " : "") +
           implementation->backend + ")";
  };
  TraceOpScope traced(TraceOp::Kind::launch, &queue, device, 0,
                      current_task_trace ? name + " (" + implementation->backend + ")"
                                         : std::string());
  if (!device.runs_native_closures()) {
    // A device of another process: the registered function runs there (its failures come
    // back as the queue's).
    std::vector<void*> allocations(memory.accessors());
    for (std::size_t i = 0; i < allocations.size(); ++i) allocations[i] = memory.allocation(i);
    try {
      queue.enqueue_native_call(name, *implementation->call, allocations);
    } catch (const error& problem) {
      throw error(problem.category(), task() + ": " + problem.what());
    }
    return;
  }
  enqueue_native_work(name, implementation->run, device, queue, memory, task);
}

}  // namespace detail
}  // namespace plexus
