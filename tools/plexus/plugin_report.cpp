#include "plugin_report.hpp"

#include <filesystem>

#include "table_printer.hpp"

namespace plexus::tool {

void print_search_path(std::ostream& out, const PluginRegistry& registry) {
  out << "Plugin search path (earlier entries win):\n";
  TablePrinter table({"#", "FROM", "DIRECTORY"});
  int index = 1;
  for (const auto& dir : registry.search_path()) {
    std::error_code ec;
    std::string path = dir.path.string();
    if (!std::filesystem::is_directory(dir.path, ec)) path += "  (does not exist)";
    table.add({std::to_string(index++), dir.origin, path});
  }
  table.print(out);
}

void print_problems_and_warnings(std::ostream& out, const PluginRegistry& registry) {
  if (!registry.problems().empty()) {
    out << "\nUnusable plugin files (skipped):\n";
    for (const auto& problem : registry.problems()) out << "  " << problem.message << '\n';
  }
  if (!registry.warnings().empty()) {
    out << "\nWarnings:\n";
    for (const auto& warning : registry.warnings()) out << "  " << warning << '\n';
  }
}

}  // namespace plexus::tool
