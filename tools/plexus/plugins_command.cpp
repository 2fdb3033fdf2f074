// `plexus plugins`: lists plugins from their entry symbols, without loading any of them.
#include <iostream>

#include "command_line.hpp"
#include "commands.hpp"
#include "config_option.hpp"
#include "plugin_report.hpp"
#include "table_printer.hpp"

namespace plexus::tool {

namespace {
constexpr const char* plugins_usage = R"(usage: plexus plugins [--config FILE] [--path DIR]...

Lists every Plexus plugin on the plugin search path without loading it (the kind,
name and plugin ABI come from the plugin's entry symbol). Files that are named like
plugins but cannot be used are listed with the reason.

  --config FILE  use this config (its [plugins] paths join the search path)
  --path DIR     add DIR to the end of the search path (repeatable)
  --help         show this help
)";
}  // namespace

int plugins_command(const std::vector<std::string>& args) {
  CommandLine line(args, {"config", "path"}, {"help"});
  if (line.flag("help")) {
    std::cout << plugins_usage;
    return 0;
  }
  Config config = config_from(line);
  auto search_path = plugin_search_path(config);
  for (const auto& dir : line.values("path")) search_path.push_back({dir, "--path"});
  PluginRegistry registry(search_path);

  print_search_path(std::cout, registry);
  std::cout << "\nPlugins (" << registry.plugins().size() << "):\n";
  TablePrinter table({"KIND", "NAME", "ABI", "FROM", "PATH"});
  for (const auto& plugin : registry.plugins()) {
    table.add({std::string(to_string(plugin.kind)), plugin.name,
               std::to_string(plugin.abi_version), plugin.found_in, plugin.path.string()});
  }
  table.print(std::cout);
  print_problems_and_warnings(std::cout, registry);
  return 0;
}

}  // namespace plexus::tool
