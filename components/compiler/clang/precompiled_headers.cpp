#include "precompiled_headers.hpp"

#include <llvm/Support/FileSystem.h>

#include <algorithm>

namespace plexus::clang_compiler {

std::string disk_identity(const std::string& path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status)) return "missing";
  return std::to_string(status.getSize()) + " " +
         std::to_string(status.getLastModificationTime().time_since_epoch().count());
}

bool disk_files_unchanged(const PrecompiledHeader& header) {
  return std::all_of(header.disk_files.begin(), header.disk_files.end(), [](const auto& file) {
    return disk_identity(file.first) == file.second;
  });
}

std::shared_ptr<const PrecompiledHeader> PrecompiledHeaders::get(const std::string& key,
                                                                 const Build& build) {
  std::promise<std::shared_ptr<const PrecompiledHeader>> promise;
  {
    std::unique_lock lock(mutex_);
    const auto found = entries_.find(key);
    if (found != entries_.end()) {
      const Future future = found->second;
      lock.unlock();
      std::shared_ptr<const PrecompiledHeader> header = future.get();  // waits for a build
      if (!header || disk_files_unchanged(*header)) return header;  // a failure is not retried here
      lock.lock();
      // Stale (or failed): the next caller builds it again, unless another already did.
      const auto again = entries_.find(key);
      if (again != entries_.end() && again->second.valid() &&
          again->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
          again->second.get() == header) {
        entries_.erase(again);
        order_.remove(key);
      }
      lock.unlock();
      return get(key, build);
    }
    entries_.emplace(key, promise.get_future().share());
    order_.push_back(key);
    ++builds_;
    while (order_.size() > capacity_) {
      entries_.erase(order_.front());
      order_.pop_front();
    }
  }
  std::shared_ptr<const PrecompiledHeader> header;
  try {
    header = build();
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard lock(mutex_);
    entries_.erase(key);
    order_.remove(key);
    throw;
  }
  promise.set_value(header);
  if (!header) {
    std::lock_guard lock(mutex_);
    entries_.erase(key);
    order_.remove(key);
  }
  return header;
}

std::size_t PrecompiledHeaders::builds() const {
  std::lock_guard lock(mutex_);
  return builds_;
}

}  // namespace plexus::clang_compiler
