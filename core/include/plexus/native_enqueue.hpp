// enqueue_native_work: how one native implementation (interop.hpp) is run on a device queue,
// for the core (a native task of this process) and for a process that runs a registered
// native function on behalf of another (an mpi worker, native_function.hpp): the same
// InteropHandle, the same failures.
//
// Thread-safety: a free function; `queue` is used by the calling thread (DeviceQueue's rule).
#pragma once

#include <functional>
#include <string>

#include "plexus/device_queue.hpp"
#include "plexus/export.hpp"
#include "plexus/interop.hpp"

namespace plexus {

// Calls `run` through queue.enqueue_native() with an InteropHandle for task `task` on
// `device` (the queue's device) and `memory`. Returns normally when it returns 0. A nonzero
// return or an exception is thrown as plexus::error "<describe()> returned error code N" or
// "<describe()> failed: <message>" (the exception's category when it is a plexus::error,
// else device), once `queue` has finished what the implementation may have enqueued (it may
// still use the task's memory); InteropHandle's refusal of a wrong handle type, which names
// the task already, is thrown as it is. `describe` is called for errors only.
PLEXUS_API void enqueue_native_work(const std::string& task,
                                    const std::function<int(InteropHandle&)>& run, Device& device,
                                    DeviceQueue& queue, const InteropHandle::Memory& memory,
                                    const std::function<std::string()>& describe);

}  // namespace plexus
