// Native tasks inside the core (interop.hpp): the device a native task goes to, checked at
// submit, and one implementation run through a DeviceQueue. Internal to the core.
// Thread-safety: free functions over their arguments.
#pragma once

#include <string>
#include <vector>

#include "plexus/device_queue.hpp"
#include "plexus/interop.hpp"

namespace plexus::detail {

// The implementation for `device` (keyed by its Device::native_backend()), or nullptr.
const NativeImplementation* implementation_for(const std::vector<NativeImplementation>& implementations,
                                               const Device& device);

// Checks a native task as Handler::native_task describes (a name, implementations, none
// empty, one per backend) and returns its device: `queue_device` when it has an
// implementation; else, for a queue not bound to its device, the first of `devices` that
// has one. Throws plexus::error naming the task, the devices' backends and the
// implementations offered.
Device* native_task_device(const std::string& name,
                           const std::vector<NativeImplementation>& implementations,
                           Device& queue_device, bool bound, const std::vector<Device*>& devices);

// Runs the implementation for `device` through queue.enqueue_native (traced as a launch
// named "NAME (BACKEND)"): enqueue_native_work (native_enqueue.hpp), whose errors say
// "native task 'NAME' (BACKEND) ...". On a device of another process
// (Device::runs_native_closures() false) the implementation's registered function is
// forwarded with the accessors' allocations (DeviceQueue::enqueue_native_call): its failure
// there comes back as the queue's.
void enqueue_native_task(const std::string& name,
                         const std::vector<NativeImplementation>& implementations, Device& device,
                         DeviceQueue& queue, const InteropHandle::Memory& memory);

}  // namespace plexus::detail
