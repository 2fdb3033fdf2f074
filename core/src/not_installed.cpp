#include "plexus/not_installed.hpp"

#include "closest_name.hpp"

namespace plexus {

namespace {

std::string joined_or_none(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::string not_installed_message(const PluginRegistry& registry, ComponentKind kind,
                                  const std::string& name, const std::string& where,
                                  std::vector<std::string> also_known) {
  const auto available = registry.names(kind);
  also_known.insert(also_known.end(), available.begin(), available.end());
  std::string message = where + ": " + std::string(to_string(kind)) + " '" + name +
                        "' is not installed";
  if (auto nearest = detail::closest_name(name, also_known)) {
    message += " (did you mean '" + *nearest + "'?)";
  }
  message += "; available: " + joined_or_none(available) + ".";
  const std::string file_name =
      "libplexus_" + std::string(to_string(kind)) + "_" + name + ".so";
  for (const auto& problem : registry.problems()) {
    if (problem.path.filename() == file_name) message += " Found but unusable: " + problem.message;
  }
  std::string searched;
  for (const auto& dir : registry.search_path()) {
    searched += (searched.empty() ? "" : ", ") + dir.path.string() + " (" + dir.origin + ")";
  }
  return message + " Searched: " + (searched.empty() ? "nothing" : searched) + ".";
}

}  // namespace plexus
