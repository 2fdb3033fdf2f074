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
  Impl(toml::table table, std::string source_name, std::string table_path)
      : table(std::move(table)),
        source_name(std::move(source_name)),
        table_path(std::move(table_path)) {}

  const toml::table table;
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
