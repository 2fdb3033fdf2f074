// DeviceGraphCache: the device graphs (device_graph.hpp) recorded for replayed command
// graphs, one per (owner, device queue): a graph is recorded by the first replay on a queue
// and replayed by the later ones. A queue that cannot record one is remembered as such.
// Internal to the core.
//
// Thread-safety: every member is safe from any thread; the DeviceGraph returned by get() is
// used by the queue's one thread (DeviceQueue's contract). Ownership: the cache owns the
// graphs; forget() drops an owner's (its ExecutableGraph going), clear() all (the runtime
// shutting down, before the queues and devices go).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "plexus/device_queue.hpp"

namespace plexus::detail {

class RuntimeState;

// Names the device graphs of one replayed graph (an ExecutableGraph, an automatic replay's
// pattern) in its runtime's cache, and forgets them when it goes. Thread-safety: immutable.
class DeviceGraphKey {
 public:
  explicit DeviceGraphKey(std::weak_ptr<RuntimeState> runtime) : runtime_(std::move(runtime)) {}
  ~DeviceGraphKey();
  DeviceGraphKey(const DeviceGraphKey&) = delete;
  DeviceGraphKey& operator=(const DeviceGraphKey&) = delete;

 private:
  std::weak_ptr<RuntimeState> runtime_;
};

class DeviceGraphCache {
 public:
  // The graph of (owner, queue), made with `record` on first use; nullptr when `record`
  // returned nullptr (the queue has no device graphs). `record`'s exceptions propagate and
  // nothing is remembered.
  DeviceGraph* get(const void* owner, DeviceQueue& queue,
                   const std::function<std::unique_ptr<DeviceGraph>()>& record);
  void forget(const void* owner) noexcept;
  void clear() noexcept;

 private:
  using Key = std::pair<const void*, const DeviceQueue*>;
  std::mutex mutex_;
  std::map<Key, std::unique_ptr<DeviceGraph>> graphs_;  // nullptr: the queue has none
};

}  // namespace plexus::detail
