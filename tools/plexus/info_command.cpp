// `plexus info`: the config in force and where it came from, every plugin found (loaded to
// read its version), what is selected, and each backend's devices or why it is unavailable.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "command_line.hpp"
#include "commands.hpp"
#include "config_option.hpp"
#include "plexus/backend.hpp"
#include "plexus/build_fingerprint.hpp"
#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/plugin_abi.h"
#include "plexus/plugin_library.hpp"
#include "plexus/version.hpp"
#include "plugin_report.hpp"
#include "table_printer.hpp"

namespace plexus::tool {

namespace {

constexpr const char* info_usage = R"(usage: plexus info [--config FILE]

Shows the configuration in force: its layers and each value with where it came from
(file:line:column, a PLEXUS_* variable or the built-in default), every plugin found with its
kind, name, version and path, the component selected for each kind, and for each
backend its devices or the reason it is unavailable. Exits 1 when the selected
components cannot be created or no device is available (the reason is printed).

  --config FILE  the project file, instead of PLEXUS_CONFIG or ./plexus.toml (layered on
                 the built-in default and the system and user files)
  -h, --help     show this help
)";

std::string gib(std::uint64_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1024.0 * 1024 * 1024)
      << " GiB";
  return out.str();
}

std::string formats_text(const DeviceInfo& info) {
  std::string text;
  for (auto format : info.formats) text += (text.empty() ? "" : ", ") + std::string(to_string(format));
  return text.empty() ? "none" : text;
}

void print_config(const Config& config) {
  std::cout << "Config: " << config.origin().path << " (" << to_string(config.origin().source)
            << ")\n";
  std::cout << "Layers, lowest first (each changes only the keys it sets):\n";
  for (const auto& layer : config.layers()) {
    std::cout << "  " << layer.path << " (" << to_string(layer.source) << ")\n";
  }
  for (const auto& override : config.overrides()) std::cout << "  override: " << override << '\n';
  std::cout << "Config in force (key, value, where it came from):\n";
  TablePrinter table({"KEY", "VALUE", "FROM"});
  for (const auto& value : config.values()) table.add({value.key, value.value, value.origin});
  table.print(std::cout, "  ");
  if (!config.warnings().empty()) {
    std::cout << "Config warnings:\n";
    for (const auto& warning : config.warnings()) std::cout << "  " << warning << '\n';
  }
  std::cout << '\n';
}

void print_components_found(const PluginRegistry& registry) {
  std::cout << "\nComponents found (" << registry.plugins().size() << "):\n";
  TablePrinter table({"KIND", "NAME", "VERSION", "PATH"});
  std::vector<std::string> load_failures;
  for (const auto& plugin : registry.plugins()) {
    std::string version;
    try {
      version = PluginLibrary::load(plugin)->version();
    } catch (const error& failure) {
      version = "(cannot load)";
      load_failures.push_back(failure.what());
    }
    table.add({std::string(to_string(plugin.kind)), plugin.name, version, plugin.path.string()});
  }
  table.print(std::cout);
  for (const auto& failure : load_failures) std::cout << "  cannot load: " << failure << '\n';
}

void print_selected(const Config& config) {
  std::cout << "\nSelected:\n";
  TablePrinter table({"KIND", "NAME"});
  std::string backends;
  for (const auto& name : config.selected_backends()) backends += (backends.empty() ? "" : ", ") + name;
  table.add({"backends", backends.empty() ? "(none)" : backends});
  for (ComponentKind kind : all_component_kinds) {
    if (kind == ComponentKind::backend) continue;
    table.add({std::string(to_string(kind)), config.selected(kind).value_or("(none)")});
  }
  table.print(std::cout);
}

void print_backends(const ComponentSet& components) {
  std::cout << "\nBackends:\n";
  for (std::size_t b = 0; b < components.backend_count(); ++b) {
    Backend& backend = components.backend(b);
    const LoadedComponent* loaded = nullptr;
    std::size_t seen = 0;
    for (const auto& component : components.loaded()) {
      if (component.kind == ComponentKind::backend && seen++ == b) loaded = &component;
    }
    BackendStatus status = backend.status();
    std::cout << "  " << (loaded ? loaded->name + " " + loaded->version : "?") << ": "
              << (status.available ? "available" : "unavailable");
    if (!status.reason.empty()) std::cout << " (" << status.reason << ")";
    std::cout << '\n';
    for (std::size_t d = 0; d < backend.device_count(); ++d) {
      const DeviceInfo& info = backend.device(d).info();
      std::cout << "    [" << d << "] " << to_string(info.type) << "  " << info.name << '\n'
                << "        vendor " << info.vendor << "; arch " << info.architecture << "; "
                << info.compute_units << " compute units; " << gib(info.global_memory_bytes)
                << "; version " << info.version << "; driver " << info.driver_version << '\n'
                << "        loads: "
                << (info.formats.empty() ? "nothing" : std::string(to_string(info.formats.front())))
                << " (formats, most preferred first: " << formats_text(info) << ")\n";
    }
  }
}

}  // namespace

int info_command(const std::vector<std::string>& args) {
  CommandLine line(args, {"config"}, {"help"});
  if (line.flag("help")) {
    std::cout << info_usage;
    return 0;
  }
  Config config = config_from(line);
  set_log_level(config.log_level());
  std::cout << "Plexus " << PLEXUS_VERSION_STRING << " (plugin ABI " << PLEXUS_PLUGIN_ABI_VERSION
            << "; build " << PLEXUS_BUILD_FINGERPRINT << ")\n\n";
  print_config(config);

  PluginRegistry registry(plugin_search_path(config));
  print_search_path(std::cout, registry);
  print_components_found(registry);
  print_problems_and_warnings(std::cout, registry);
  print_selected(config);

  std::unique_ptr<ComponentSet> components;
  try {
    components = std::make_unique<ComponentSet>(config, registry);
  } catch (const error& failure) {
    std::cout << "\nerror: the selected components cannot be created: " << failure.what() << '\n';
    return 1;
  }
  print_backends(*components);
  if (!components->skipped().empty()) {
    std::cout << "\nSkipped:\n";
    for (const auto& skipped : components->skipped()) std::cout << "  " << skipped << '\n';
  }
  if (!components->warnings().empty()) {
    std::cout << "\nComponent warnings:\n";
    for (const auto& warning : components->warnings()) std::cout << "  " << warning << '\n';
  }
  std::size_t devices = 0;
  for (std::size_t b = 0; b < components->backend_count(); ++b) {
    if (components->backend(b).status().available) devices += components->backend(b).device_count();
  }
  if (devices == 0) {
    std::cout << "\nerror: no device is available, so programs cannot run kernels: select a "
                 "backend that has one ([backends] use = [\"host\"]; see the Backends above)\n";
    return 1;
  }
  return 0;
}

}  // namespace plexus::tool
