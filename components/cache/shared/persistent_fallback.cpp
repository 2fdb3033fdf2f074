#include "persistent_fallback.hpp"

#include "plexus/error.hpp"
#include "plexus/warn_once.hpp"

namespace plexus::cache_codec {

namespace {
const char* continuing(StoreMode mode) {
  return mode == StoreMode::read_only ? "using it read-only, with new entries kept in memory"
                                      : "using an in-memory cache";
}
}  // namespace

const char* to_string(StoreMode mode) {
  switch (mode) {
    case StoreMode::read_write: return "read-write";
    case StoreMode::read_only: return "read-only (new entries in memory)";
    case StoreMode::memory: return "in memory only";
  }
  return "?";
}

void PersistentFallback::degrade(StoreMode to, const std::string& location, const std::string& why) {
  {
    std::lock_guard lock(mutex_);
    if (static_cast<int>(to) <= static_cast<int>(mode_.load())) return;
    mode_.store(to, std::memory_order_release);
    reason_ = why;
  }
  const std::string message = store_ + ": " + why + "; " + fix_ + ". Continuing without '" + location +
                              "' as a writable cache (" + continuing(to) + ") for this process";
  plexus::warn_once(message);
}

void PersistentFallback::warn_once(const std::string& message) const {
  plexus::warn_once(store_ + ": " + message);
}

std::string PersistentFallback::reason() const {
  std::lock_guard lock(mutex_);
  return reason_;
}

std::vector<std::pair<std::string, std::string>> PersistentFallback::describe() const {
  std::vector<std::pair<std::string, std::string>> out = {{"mode", to_string(mode())}};
  if (mode() != StoreMode::read_write) {
    out.push_back({"why", reason()});
    out.push_back({"entries in memory", std::to_string(memory_.stats().entries)});
  }
  return out;
}

void PersistentFallback::refuse(const std::string& action, const std::string& location) const {
  throw error(error_category::io, store_ + ": cannot " + action + " '" + location + "': it is " +
                                      to_string(mode()) + " because " + reason() + "; " + fix_);
}

}  // namespace plexus::cache_codec
