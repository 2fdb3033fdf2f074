// Device: one device of a backend: its description, memory, code loading and queues.
//
// Memory: allocate() returns an opaque handle to `bytes` of device memory (a real pointer
// where the device has one: host and CUDA memory, OpenCL SVM; otherwise what the backend
// documents, e.g. a cl_mem). It is the USM-style device pointer a buffer hands out, and
// what KernelArgument::of_allocation and DeviceQueue copies take. A device with
// shares_host_memory() reads and writes host memory directly: the runtime treats it as the
// host location (no copies) and passes host addresses as allocations.
//
// Ownership: owned by its backend and valid as long as the backend. Modules, queues and
// allocations it hands out must be released before the backend is destroyed.
// Thread-safety: every member is safe from any thread.
// Errors: plexus::error(device) when the driver fails (out of memory names the size),
// plexus::error(unsupported) for a binary format the device does not load (the message
// lists those it does), plexus::error(build) when the driver rejects a binary (with its log).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/device_info.hpp"
#include "plexus/device_module.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/export.hpp"
#include "plexus/kernel_info.hpp"
#include "plexus/native_handle.hpp"
#include "plexus/usm_kind.hpp"

namespace plexus {

class Backend;

class PLEXUS_API Device {
 public:
  Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  virtual ~Device();

  virtual const DeviceInfo& info() const = 0;
  virtual Backend& backend() const = 0;

  // True when kernels on this device use host memory directly (the host backend).
  virtual bool shares_host_memory() const { return false; }

  // Empty while the device works (the default); once it is gone for good (a failed node of
  // the mpi backend), why, naming it, and so from then on. The runtime asks before it plans
  // buffer accesses (MemoryModel::lose_location): keep it cheap.
  virtual std::string lost() const { return {}; }

  // Never returns nullptr; bytes == 0 is invalid_argument.
  virtual void* allocate(std::size_t bytes);
  // Accepts nullptr. Must not throw.
  virtual void deallocate(void* allocation) noexcept;

  // USM (usm_kind.hpp), optional per kind: allocate_usm returns a real address of `bytes`
  // that kernels on this device take as a pointer argument (KernelArgument::of_usm) and
  // this device's queues copy and fill (DeviceQueue::usm_copy, usm_fill); host and shared
  // memory the host also reads and writes directly. Never nullptr; bytes == 0 is
  // invalid_argument; out of memory is plexus::error(device) naming the size. A kind the
  // device does not support (supports_usm false, the default for every kind):
  // plexus::error(unsupported) naming the device and the kind. deallocate_usm takes what
  // allocate_usm returned for `kind` (nullptr accepted), must not throw, and must be
  // called before the backend goes.
  virtual bool supports_usm(UsmKind kind) const {
    (void)kind;
    return false;
  }
  virtual void* allocate_usm(UsmKind kind, std::size_t bytes);
  virtual void deallocate_usm(UsmKind kind, void* pointer) noexcept;

  // Loads device code of `format` (one of info().formats). `kernels` describes the kernels
  // the compiler found in it (names and arguments), in the compiler's order.
  virtual std::shared_ptr<DeviceModule> load_module(BinaryFormat format,
                                                    std::span<const std::byte> binary,
                                                    const std::vector<KernelInfo>& kernels);

  virtual std::unique_ptr<DeviceQueue> create_queue();

  // Host memory for staging copies between devices: `bytes` that this device's queues copy
  // to and from fastest: page-locked when pins_host_memory() (CUDA: cuMemHostAlloc; OpenCL:
  // a mapped CL_MEM_ALLOC_HOST_PTR buffer), else plain page-aligned memory (the default).
  // Never nullptr; bytes == 0 is invalid_argument; plexus::error(device) when the driver
  // cannot provide it. Release with deallocate_host (accepts nullptr, must not throw)
  // before the backend goes.
  virtual void* allocate_host(std::size_t bytes);
  virtual void deallocate_host(void* memory) noexcept;
  virtual bool pins_host_memory() const { return false; }

  // Native tasks (interop.hpp). native_backend(): the name native tasks key their
  // implementations by ("host", "opencl", "cuda", a third-party backend's own); empty (the
  // default) when the device runs no native tasks. native_memory(): the native handle of
  // `allocation` (what allocate() returned, or host memory on a device that
  // shares_host_memory()), typed as the backend declares it (native_handle.hpp); the
  // default gives the allocation itself as an untyped pointer (void*).
  virtual std::string_view native_backend() const { return {}; }
  // True when a native implementation does its work itself on the scheduler's thread (the
  // device has no queue to enqueue it on: the host backend), so such a task takes one of
  // the device's compute units and the device runs up to compute_units of them at once
  // (schedulers model it so, TaskBody::tasks_at_once). False (the default): it enqueues
  // its work on the device's queue.
  virtual bool native_work_on_caller() const { return false; }
  // False when the device belongs to another process (the mpi backend's remote devices): a
  // closure of this process cannot run there, only a native function registered by name in
  // both processes (native_function.hpp), which its queues forward
  // (DeviceQueue::enqueue_native_call). True (the default): any implementation runs.
  virtual bool runs_native_closures() const { return true; }
  virtual NativeHandle native_memory(void* allocation) const { return NativeHandle::of(allocation); }

 protected:
  // For backends that do not implement an operation yet: throws plexus::error(unsupported)
  // naming the backend, the device and `operation`.
  [[noreturn]] void unsupported(const char* operation) const;
};

}  // namespace plexus
