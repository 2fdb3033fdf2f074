// PluginListing: what is known about a plugin file without loading it. Plain data.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "plexus/component_kind.hpp"

namespace plexus {

struct PluginListing {
  std::filesystem::path path;
  ComponentKind kind = ComponentKind::backend;
  std::string name;
  std::uint32_t abi_version = 0;
  std::string entry_symbol;  // plexus_plugin_abi<N>__<kind>__<name>
  std::string found_in;      // the search-path entry that found it, for messages
};

}  // namespace plexus
