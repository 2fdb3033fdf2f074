// BuildCache: the in-memory program/kernel cache's get_or_build (DPC++'s design, seed
// kernel-program-cache.txt): one build per key however many threads ask at once.
//
// get_or_build(key, build):
//  - the first thread to ask for a key inserts an "in progress" entry (holding the global
//    lock only for that map access), builds outside the lock, and publishes the result;
//  - threads asking meanwhile wait on that entry's condition variable, not on the lock;
//  - a finished entry is returned at once (its state is read without the entry's mutex);
//  - a build that throws plexus::error hands that error (category and message) to every waiter; a build that
//    fails any other way (possibly spurious) makes each waiter try the build once more;
//  - failed entries are dropped, so a later call builds again.
// Finished entries are evicted least recently used first once their total size passes
// max_bytes (0: unbounded); evicted values stay alive for whoever still holds them.
//
// Thread-safety: every member is safe from any thread. Ownership: values are shared
// (std::shared_ptr<const Value>); the cache never hands out references into itself.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "plexus/error.hpp"

namespace plexus {

struct BuildCacheStats {
  std::uint64_t hits = 0;       // finished entries returned
  std::uint64_t misses = 0;     // keys this thread had to build
  std::uint64_t builds = 0;     // builds that succeeded
  std::uint64_t waits = 0;      // calls that waited for another thread's build
  std::uint64_t evictions = 0;
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};

template <class Key, class Value>
class BuildCache {
 public:
  using ValuePtr = std::shared_ptr<const Value>;
  using SizeOf = std::function<std::uint64_t(const Value&)>;

  explicit BuildCache(std::uint64_t max_bytes = 0, SizeOf size_of = nullptr)
      : max_bytes_(max_bytes), size_of_(std::move(size_of)) {}
  BuildCache(const BuildCache&) = delete;
  BuildCache& operator=(const BuildCache&) = delete;

  // `build` returns the value (not null) or throws.
  ValuePtr get_or_build(const Key& key, const std::function<ValuePtr()>& build) {
    return get_or_build(key, build, /*retries_left=*/1);
  }

  BuildCacheStats stats() const {
    std::lock_guard lock(mutex_);
    BuildCacheStats result = stats_;
    result.hits = hits_.load();
    return result;
  }

 private:
  enum class State { building, done, failed };
  struct Entry {
    std::atomic<State> state{State::building};
    ValuePtr value;
    // The builder's plexus::error, handed to each waiter as its own copy (a fresh exception
    // per thread: sharing one exception object across threads goes through libstdc++'s
    // reference counts, which ThreadSanitizer cannot see). Empty: retry.
    std::optional<std::pair<error_category, std::string>> error;
    std::mutex mutex;
    std::condition_variable done_cv;
    std::uint64_t size = 0;
    typename std::list<Key>::iterator lru;  // valid once done
  };

  ValuePtr get_or_build(const Key& key, const std::function<ValuePtr()>& build,
                        int retries_left) {
    std::shared_ptr<Entry> entry;
    bool builder = false;
    {
      std::lock_guard lock(mutex_);
      auto [found, inserted] = entries_.try_emplace(key);
      if (inserted) {
        found->second = std::make_shared<Entry>();
        builder = true;
        ++stats_.misses;
      } else if (found->second->state.load(std::memory_order_acquire) == State::done) {
        lru_.splice(lru_.begin(), lru_, found->second->lru);
      } else {
        ++stats_.waits;
      }
      entry = found->second;
    }
    if (!builder) {
      if (entry->state.load(std::memory_order_acquire) == State::done) {
        hits_.fetch_add(1, std::memory_order_relaxed);
        return entry->value;
      }
      std::unique_lock wait(entry->mutex);
      entry->done_cv.wait(wait, [&] {
        return entry->state.load(std::memory_order_acquire) != State::building;
      });
      if (entry->state.load(std::memory_order_acquire) == State::done) return entry->value;
      if (entry->error) throw plexus::error(entry->error->first, entry->error->second);
      wait.unlock();
      if (retries_left > 0) return get_or_build(key, build, retries_left - 1);
      throw error(error_category::build, "the build failed in another thread, and again here");
    }
    ValuePtr value;
    try {
      value = build();
      if (!value) throw error(error_category::internal, "a build returned no value");
    } catch (const error& failure) {
      finish_failed(key, entry, std::pair(failure.category(), std::string(failure.what())));
      throw;
    } catch (...) {
      finish_failed(key, entry, std::nullopt);
      throw;
    }
    {
      std::lock_guard lock(mutex_);
      entry->value = value;
      entry->size = size_of_ ? size_of_(*value) : 0;
      lru_.push_front(key);
      entry->lru = lru_.begin();
      ++stats_.builds;
      ++stats_.entries;
      stats_.bytes += entry->size;
      {
        std::lock_guard state_lock(entry->mutex);
        entry->state.store(State::done, std::memory_order_release);
      }
      evict_locked(key);
    }
    entry->done_cv.notify_all();
    return value;
  }

  void finish_failed(const Key& key, const std::shared_ptr<Entry>& entry,
                     std::optional<std::pair<error_category, std::string>> failure) {
    {
      std::lock_guard lock(mutex_);
      if (auto found = entries_.find(key); found != entries_.end() && found->second == entry) {
        entries_.erase(found);
      }
      std::lock_guard state_lock(entry->mutex);
      entry->error = std::move(failure);
      entry->state.store(State::failed, std::memory_order_release);
    }
    entry->done_cv.notify_all();
  }

  // Called with mutex_ held; never evicts `keep` (the entry just built).
  void evict_locked(const Key& keep) {
    while (max_bytes_ != 0 && stats_.bytes > max_bytes_ && lru_.size() > 1) {
      const Key victim = lru_.back();
      if (!(victim < keep) && !(keep < victim)) break;
      auto found = entries_.find(victim);
      stats_.bytes -= found->second->size;
      --stats_.entries;
      ++stats_.evictions;
      entries_.erase(found);
      lru_.pop_back();
    }
  }

  const std::uint64_t max_bytes_;
  const SizeOf size_of_;
  mutable std::mutex mutex_;
  std::map<Key, std::shared_ptr<Entry>> entries_;
  std::list<Key> lru_;  // finished entries, most recently used first
  BuildCacheStats stats_;
  std::atomic<std::uint64_t> hits_{0};
};

}  // namespace plexus
