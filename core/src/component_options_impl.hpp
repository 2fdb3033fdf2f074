// ComponentOptions' private state. Internal to the core.
#pragma once

#include <toml++/toml.h>

#include <mutex>
#include <set>
#include <string>

#include "config_impl.hpp"
#include "plexus/component_options.hpp"
#include "toml_location.hpp"

namespace plexus {

class ComponentOptions::Impl {
 public:
  // `table` lives inside the merged config that `config` keeps alive (copying a toml++
  // table would drop the source positions that messages need).
  Impl(std::shared_ptr<const Config::Impl> config, const toml::table& table,
       std::string table_path)
      : config(std::move(config)), table(table), table_path(std::move(table_path)) {}

  const std::shared_ptr<const Config::Impl> config;
  const toml::table& table;
  const std::string table_path;

  // "file:line:col" of the option's value, or the override that set it.
  std::string location(std::string_view key, const toml::node& node) const {
    const std::string path = table_path + "." + std::string(key);
    if (auto found = config->set_by.find(path); found != config->set_by.end()) {
      return found->second;
    }
    return detail::node_location(config->layers.empty() ? "" : config->layers.back().origin.path,
                                 node);
  }

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
