// PluginRegistry: finds plugins on a search path and lists them without loading them.
//
// A plugin file is named libplexus_<kind>_<name>.so and carries one entry symbol in its
// "plexus" ELF section (plugin_abi.h). Files so named that are unreadable, are not ELF,
// carry no entry or were built for another plugin ABI are reported in problems(), never
// thrown: the other plugins stay usable. When two files claim the same kind and name, the
// one earlier in the search path wins (then the file name order), with a warning that
// names both files.
//
// Thread-safety: immutable after construction; safe from any thread.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/export.hpp"
#include "plexus/plugin_listing.hpp"
#include "plexus/plugin_search_path.hpp"

namespace plexus {

struct PluginProblem {
  std::filesystem::path path;
  std::string message;
};

class PLEXUS_API PluginRegistry {
 public:
  explicit PluginRegistry(std::vector<PluginSearchDir> search_path);

  const std::vector<PluginSearchDir>& search_path() const { return search_path_; }
  // The usable plugins, ordered by kind then name.
  const std::vector<PluginListing>& plugins() const { return plugins_; }
  const std::vector<PluginProblem>& problems() const { return problems_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  const PluginListing* find(ComponentKind kind, std::string_view name) const;
  std::vector<std::string> names(ComponentKind kind) const;

  // Reads one file's entry without loading it; throws plexus::error(plugin) with the cause.
  static PluginListing inspect(const std::filesystem::path& file);

 private:
  std::vector<PluginSearchDir> search_path_;
  std::vector<PluginListing> plugins_;
  std::vector<PluginProblem> problems_;
  std::vector<std::string> warnings_;
};

}  // namespace plexus
