// Unified shared memory (USM), as in SYCL: memory allocated for the device of a queue and
// used through plain pointers, by kernels (Handler::parallel_for, Queue::parallel_for) and
// by the queue's memcpy, memset, fill and copy commands (queue.hpp, handler.hpp).
//
//   float* x = plexus::malloc_device<float>(n, q);    // device memory
//   float* h = plexus::malloc_host<float>(n, q);      // host memory the device uses in place
//   float* s = plexus::malloc_shared<float>(n, q);    // both, where the backend supports it
//   auto copied = q.memcpy(x, host.data(), n * sizeof(float));
//   q.parallel_for(kernel, plexus::nd_range(plexus::Range{n}), x, y, out).wait();
//   plexus::free(x, q);
//
// Kinds (usm_kind.hpp) per backend: host: all three (the same host memory); OpenCL: SVM
// where the device reports it (device: coarse-grained SVM; host and shared: fine-grained
// buffer SVM); CUDA: cuMemAlloc, cuMemAllocHost, cuMemAllocManaged. A kind the queue's
// device does not support: plexus::error(unsupported) naming the device and the kind.
//
// No automatic tracking, as in SYCL: USM commands and kernels are ordered only by events
// (Handler::depends_on, the dependencies of the queue's shortcuts) and by an in-order
// queue; the host may read USM memory once the command that wrote it is done. free() does
// not wait: free memory only when nothing that uses it still runs. Allocations left at
// the end are freed when the Runtime goes.
//
// Errors: 0 bytes, a queue whose runtime is gone, free() of a pointer that is not the start
// of a live USM allocation of the queue's runtime: plexus::error(invalid_argument); out of
// device memory: plexus::error(device). Thread-safety: every function from any thread.
#pragma once

#include <cstddef>
#include <optional>

#include "plexus/export.hpp"
#include "plexus/queue.hpp"
#include "plexus/usm_kind.hpp"

namespace plexus {

// `bytes` of USM of `kind` on the queue's device.
PLEXUS_API void* malloc_usm(std::size_t bytes, const Queue& queue, UsmKind kind);

inline void* malloc_device(std::size_t bytes, const Queue& queue) {
  return malloc_usm(bytes, queue, UsmKind::device);
}
inline void* malloc_host(std::size_t bytes, const Queue& queue) {
  return malloc_usm(bytes, queue, UsmKind::host);
}
inline void* malloc_shared(std::size_t bytes, const Queue& queue) {
  return malloc_usm(bytes, queue, UsmKind::shared);
}
// `count` elements of T.
template <class T>
T* malloc_device(std::size_t count, const Queue& queue) {
  return static_cast<T*>(malloc_usm(count * sizeof(T), queue, UsmKind::device));
}
template <class T>
T* malloc_host(std::size_t count, const Queue& queue) {
  return static_cast<T*>(malloc_usm(count * sizeof(T), queue, UsmKind::host));
}
template <class T>
T* malloc_shared(std::size_t count, const Queue& queue) {
  return static_cast<T*>(malloc_usm(count * sizeof(T), queue, UsmKind::shared));
}

// Frees what a malloc_* of the queue's runtime returned (nullptr: nothing).
PLEXUS_API void free(void* pointer, const Queue& queue);

// The kind of the USM allocation holding `pointer` (any address inside it); std::nullopt
// for memory that is not USM of the queue's runtime.
PLEXUS_API std::optional<UsmKind> get_pointer_type(const void* pointer, const Queue& queue);

}  // namespace plexus
