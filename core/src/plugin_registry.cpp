#include "plexus/plugin_registry.hpp"

#include <boost/dll/library_info.hpp>

#include <algorithm>
#include <map>

#include "elf_check.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_abi.h"

namespace plexus {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view file_prefix = "libplexus_";
constexpr std::string_view file_suffix = ".so";

bool looks_like_plugin_file(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > file_prefix.size() + file_suffix.size() && name.starts_with(file_prefix) &&
         name.ends_with(file_suffix);
}

[[noreturn]] void refuse(const fs::path& file, const std::string& why) {
  throw error(error_category::plugin, "plugin file " + file.string() + ": " + why);
}

// "plexus_plugin_abi5__scheduler__fifo" -> abi 5, kind, name.
PluginListing parse_entry_symbol(const fs::path& file, const std::string& symbol) {
  std::string_view rest(symbol);
  rest.remove_prefix(std::string_view(PLEXUS_PLUGIN_SYMBOL_PREFIX).size());
  const auto first = rest.find("__");
  const auto second = first == std::string_view::npos ? first : rest.find("__", first + 2);
  if (second == std::string_view::npos) {
    refuse(file, "malformed entry symbol '" + symbol +
                     "' (expected plexus_plugin_abi<N>__<kind>__<name>)");
  }
  PluginListing listing;
  listing.path = file;
  listing.entry_symbol = symbol;
  const std::string abi(rest.substr(0, first));
  if (abi.empty() || !std::all_of(abi.begin(), abi.end(), ::isdigit) || abi.size() > 9) {
    refuse(file, "malformed ABI version in entry symbol '" + symbol + "'");
  }
  listing.abi_version = static_cast<std::uint32_t>(std::stoul(abi));
  const std::string kind(rest.substr(first + 2, second - first - 2));
  auto parsed_kind = parse_component_kind(kind);
  if (!parsed_kind) refuse(file, "entry symbol '" + symbol + "' names unknown kind '" + kind + "'");
  listing.kind = *parsed_kind;
  listing.name = std::string(rest.substr(second + 2));
  if (listing.name.empty()) refuse(file, "entry symbol '" + symbol + "' has an empty name");
  return listing;
}

}  // namespace

PluginListing PluginRegistry::inspect(const fs::path& file) {
  if (auto problem = detail::elf_problem(file)) refuse(file, *problem);
  std::vector<std::string> symbols;
  try {
    boost::dll::library_info info(file, false);
    for (auto& symbol : info.symbols(PLEXUS_PLUGIN_SECTION_NAME)) {
      if (symbol.starts_with(PLEXUS_PLUGIN_SYMBOL_PREFIX)) symbols.push_back(symbol);
    }
  } catch (const std::exception& failure) {
    refuse(file, std::string("cannot read its symbols: ") + failure.what());
  }
  if (symbols.empty()) {
    refuse(file, "not a Plexus plugin: no entry symbol in ELF section '" +
                     std::string(PLEXUS_PLUGIN_SECTION_NAME) +
                     "' (build plugins with plexus_add_plugin() and PLEXUS_PLUGIN(...))");
  }
  if (symbols.size() > 1) {
    refuse(file, "declares " + std::to_string(symbols.size()) +
                     " plugin entries; a plugin library declares exactly one");
  }
  PluginListing listing = parse_entry_symbol(file, symbols.front());
  const std::string expected_name = std::string(file_prefix) +
                                    std::string(to_string(listing.kind)) + "_" + listing.name +
                                    std::string(file_suffix);
  if (file.filename() != expected_name) {
    refuse(file, "its entry symbol declares " + std::string(to_string(listing.kind)) + " '" +
                     listing.name + "', so the file must be named " + expected_name);
  }
  if (listing.abi_version != PLEXUS_PLUGIN_ABI_VERSION) {
    refuse(file, "built for plugin ABI " + std::to_string(listing.abi_version) +
                     ", but this core implements plugin ABI " +
                     std::to_string(PLEXUS_PLUGIN_ABI_VERSION) +
                     ": rebuild the plugin against this Plexus SDK");
  }
  return listing;
}

PluginRegistry::PluginRegistry(std::vector<PluginSearchDir> search_path)
    : search_path_(std::move(search_path)) {
  std::map<std::pair<ComponentKind, std::string>, std::size_t> chosen;
  for (const auto& dir : search_path_) {
    std::error_code ec;
    if (!fs::is_directory(dir.path, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir.path, ec)) {
      if (looks_like_plugin_file(entry.path()) && entry.is_regular_file(ec)) {
        files.push_back(entry.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      PluginListing listing;
      try {
        listing = inspect(file);
      } catch (const error& failure) {
        problems_.push_back({file, failure.what()});
        continue;
      }
      listing.found_in = dir.origin;
      auto key = std::make_pair(listing.kind, listing.name);
      if (auto it = chosen.find(key); it != chosen.end()) {
        const PluginListing& kept = plugins_[it->second];
        warnings_.push_back(std::string(to_string(listing.kind)) + " '" + listing.name +
                            "' is provided by two plugins: using " + kept.path.string() + " (" +
                            kept.found_in + "), ignoring " + file.string() + " (" +
                            dir.origin + ")");
        continue;
      }
      chosen.emplace(key, plugins_.size());
      plugins_.push_back(std::move(listing));
    }
  }
  std::stable_sort(plugins_.begin(), plugins_.end(), [](const auto& a, const auto& b) {
    return std::tie(a.kind, a.name) < std::tie(b.kind, b.name);
  });
}

const PluginListing* PluginRegistry::find(ComponentKind kind, std::string_view name) const {
  for (const auto& listing : plugins_) {
    if (listing.kind == kind && listing.name == name) return &listing;
  }
  return nullptr;
}

std::vector<std::string> PluginRegistry::names(ComponentKind kind) const {
  std::vector<std::string> result;
  for (const auto& listing : plugins_) {
    if (listing.kind == kind) result.push_back(listing.name);
  }
  return result;
}

}  // namespace plexus
