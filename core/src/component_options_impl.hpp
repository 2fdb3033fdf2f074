// ComponentOptions' private state. Internal to the core.
#pragma once

#include <toml++/toml.h>

#include <mutex>
#include <set>
#include <string>

#include "plexus/component_options.hpp"

namespace plexus {

class ComponentOptions::Impl {
 public:
  // `table` lives inside the parsed config that `owner` keeps alive (copying a toml++
  // table would drop the source positions that messages need).
  Impl(std::shared_ptr<const void> owner, const toml::table& table, std::string source_name,
       std::string table_path)
      : owner(std::move(owner)),
        table(table),
        source_name(std::move(source_name)),
        table_path(std::move(table_path)) {}

  const std::shared_ptr<const void> owner;
  const toml::table& table;
  const std::string source_name;
  const std::string table_path;

  void mark_read(std::string_view key) const {
    std::lock_guard lock(mutex);
    read_keys.emplace(key);
  }
  bool was_read(std::string_view key) const {
    std::lock_guard lock(mutex);
    return read_keys.count(std::string(key)) != 0;
  }

 private:
  mutable std::mutex mutex;
  mutable std::set<std::string> read_keys;
};

}  // namespace plexus
