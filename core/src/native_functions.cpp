// The process's registry of native functions (native_function.hpp).
#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>

#include "demangle.hpp"
#include "plexus/error.hpp"
#include "plexus/native_function.hpp"

namespace plexus {

namespace {

struct NativeRegistry {
  std::mutex mutex;
  std::uint64_t next_id = 1;
  std::multimap<std::string, std::pair<std::uint64_t, NativeFunctions::Entry>> entries;
};

// Never destroyed: libraries may unregister their functions after the core's statics are gone.
NativeRegistry& native_registry() {
  static NativeRegistry* const instance = new NativeRegistry;
  return *instance;
}

std::string listed_natives(const std::multimap<std::string, std::pair<std::uint64_t, NativeFunctions::Entry>>& entries) {
  std::string names;
  for (auto it = entries.begin(); it != entries.end(); it = entries.upper_bound(it->first))
    names += (names.empty() ? "'" : ", '") + it->first + "'";
  return names.empty() ? "none" : names;
}

struct NativeCallable {
  int (*run)(void (*)(), InteropHandle&, const std::byte*) = nullptr;
  void (*body)() = nullptr;
};

// The one entry `call` names, checked (against the backend of the device it runs on, when
// given); what calls it, used outside the lock.
NativeCallable resolve_native(const NativeCall& call, const InteropHandle* handle) {
  NativeRegistry& all = native_registry();
  std::lock_guard lock(all.mutex);
  const auto [first, last] = all.entries.equal_range(call.function);
  if (first == last)
    throw error(error_category::unsupported,
                "native function '" + call.function +
                    "' is not registered in this process (registered: " + listed_natives(all.entries) +
                    "); link or load the code that registers it (plexus worker: "
                    "--native-library LIB.so)");
  if (std::next(first) != last)
    throw error(error_category::invalid_argument,
                "native function '" + call.function + "' is registered " +
                    std::to_string(std::distance(first, last)) +
                    " times in this process; give each its own name");
  const NativeFunctions::Entry& entry = first->second.second;
  if (entry.backend != call.backend)
    throw error(error_category::invalid_argument,
                "native function '" + call.function + "' is registered for backend '" +
                    entry.backend + "' here, and was called for '" + call.backend + "'");
  if (entry.arguments_type != call.arguments_type || entry.arguments_size != call.arguments.size())
    throw error(error_category::invalid_argument,
                "native function '" + call.function + "' takes arguments of type '" +
                    detail::demangle(entry.arguments_type.c_str()) + "' (" +
                    std::to_string(entry.arguments_size) + " bytes) here, and was given '" +
                    detail::demangle(call.arguments_type.c_str()) + "' (" +
                    std::to_string(call.arguments.size()) +
                    " bytes): build both sides from the same code");
  if (handle && handle->backend() != entry.backend)
    throw error(error_category::invalid_argument,
                "native function '" + call.function + "' is for backend '" + entry.backend +
                    "', and runs on a device of backend '" + std::string(handle->backend()) + "'");
  return {entry.run, entry.body};
}

}  // namespace

std::uint64_t NativeFunctions::add(Entry entry) {
  NativeRegistry& all = native_registry();
  std::lock_guard lock(all.mutex);
  const std::uint64_t id = all.next_id++;
  std::string name = entry.name;
  all.entries.emplace(std::move(name), std::make_pair(id, std::move(entry)));
  return id;
}

void NativeFunctions::remove(std::uint64_t id) noexcept {
  NativeRegistry& all = native_registry();
  std::lock_guard lock(all.mutex);
  const auto it = std::find_if(all.entries.begin(), all.entries.end(),
                               [id](const auto& each) { return each.second.first == id; });
  if (it != all.entries.end()) all.entries.erase(it);
}

std::vector<std::string> NativeFunctions::names() {
  NativeRegistry& all = native_registry();
  std::lock_guard lock(all.mutex);
  std::vector<std::string> names;
  for (auto it = all.entries.begin(); it != all.entries.end(); it = all.entries.upper_bound(it->first))
    names.push_back(it->first);
  return names;
}

void NativeFunctions::check(const NativeCall& call) { resolve_native(call, nullptr); }

int NativeFunctions::run(const NativeCall& call, InteropHandle& handle) {
  const NativeCallable callable = resolve_native(call, &handle);
  return callable.run(callable.body, handle, call.arguments.data());
}

}  // namespace plexus
