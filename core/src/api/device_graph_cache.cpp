#include "device_graph_cache.hpp"

#include <vector>

#include "runtime_state.hpp"

namespace plexus::detail {

DeviceGraphKey::~DeviceGraphKey() {
  if (auto runtime = runtime_.lock()) runtime->device_graphs.forget(this);
}

DeviceGraph* DeviceGraphCache::get(const void* owner, DeviceQueue& queue,
                                   const std::function<std::unique_ptr<DeviceGraph>()>& record) {
  const Key key{owner, &queue};
  {
    std::lock_guard lock(mutex_);
    if (auto found = graphs_.find(key); found != graphs_.end()) return found->second.get();
  }
  // Recorded outside the lock (a CUDA graph's instantiation takes a while); only this
  // queue's thread records for this key, so nobody races to record it too.
  std::unique_ptr<DeviceGraph> recorded = record();
  std::lock_guard lock(mutex_);
  auto& slot = graphs_[key];
  slot = std::move(recorded);
  return slot.get();
}

void DeviceGraphCache::forget(const void* owner) noexcept {
  std::vector<std::unique_ptr<DeviceGraph>> dropped;  // destroyed outside the lock
  std::lock_guard lock(mutex_);
  for (auto it = graphs_.lower_bound(Key{owner, nullptr});
       it != graphs_.end() && it->first.first == owner;) {
    dropped.push_back(std::move(it->second));
    it = graphs_.erase(it);
  }
}

void DeviceGraphCache::clear() noexcept {
  std::map<Key, std::unique_ptr<DeviceGraph>> dropped;
  std::lock_guard lock(mutex_);
  dropped.swap(graphs_);
}

}  // namespace plexus::detail
