#include "build_fingerprint.hpp"

#include <array>
#include <map>

namespace plexus::detail {

namespace {

std::map<std::string, std::string> fields(std::string_view text) {
  std::map<std::string, std::string> result;
  while (!text.empty()) {
    auto end = text.find(';');
    std::string_view item = text.substr(0, end);
    if (auto eq = item.find('='); eq != std::string_view::npos) {
      result.emplace(item.substr(0, eq), item.substr(eq + 1));
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return result;
}

}  // namespace

std::optional<std::string> fingerprint_mismatch(std::string_view core, std::string_view plugin) {
  constexpr std::array<std::string_view, 2> must_match = {"cxx11abi", "sanitizer"};
  auto core_fields = fields(core);
  auto plugin_fields = fields(plugin);
  for (auto field : must_match) {
    std::string key(field);
    const std::string core_value = core_fields.count(key) ? core_fields[key] : "?";
    const std::string plugin_value = plugin_fields.count(key) ? plugin_fields[key] : "?";
    // Uninstrumented code may run in a sanitized process (the LLVM libraries always do);
    // instrumented code cannot load into an uninstrumented one.
    const bool plain_plugin_in_sanitized_core = key == "sanitizer" && plugin_value == "none";
    if (core_value != plugin_value && !plain_plugin_in_sanitized_core) {
      return "built with " + key + "=" + plugin_value + " but the core has " + key + "=" +
             core_value + " (plugin fingerprint '" + std::string(plugin) + "', core '" +
             std::string(core) + "')";
    }
  }
  return std::nullopt;
}

}  // namespace plexus::detail
