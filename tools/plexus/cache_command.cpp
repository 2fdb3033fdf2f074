// `plexus cache`: inspects and maintains the configured cache store (or the one --store
// names): stats, ls, show, verify, prune, clear. Works on any store through the CacheStore
// interface; only the cache plugin is loaded (no backends, no compiler).
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "command_line.hpp"
#include "commands.hpp"
#include "config_option.hpp"
#include "plexus/no_components.hpp"
#include "plexus/byte_size.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/not_installed.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/plugin_search_path.hpp"
#include "table_printer.hpp"

namespace plexus::tool {

namespace {

constexpr const char* cache_usage = R"(usage: plexus cache <subcommand> [--config FILE] [--store NAME] [options]

Inspects and maintains the persistent cache of build results (the store the config
selects with [cache] use = "...", PLEXUS_CACHE, or --store).

Subcommands:
  stats                 entries, sizes, oldest and newest use, the store's settings and
                        lifetime hit/miss counters
  ls                    one line per entry: id, size, last use, key (device, image,
                        specialization constants, build options)
  show ID-PREFIX        every entry whose id (or image) starts with ID-PREFIX, in full
  verify                check every entry's checksum and key; damaged entries are removed
                        and listed (exit 1 when any was found)
  prune [--max-size BYTES] [--max-age DAYS]
                        remove entries unused for DAYS, then the least recently used
                        until the store holds at most BYTES (suffixes K, M, G, T: KiB, ...)
  clear                 remove every entry (read-only layers are never touched)

Options:
  --config FILE         the project file (instead of PLEXUS_CONFIG or ./plexus.toml)
  --store NAME          the cache store to use (memory, disk, sqlite, ...)
  --help                show this help (also after a subcommand)
)";


// The store's plugin and object; the object goes first (it needs its library).
struct OpenStore {
  std::string name;
  std::shared_ptr<PluginLibrary> library;
  std::shared_ptr<Component> component;
  CacheStore* store = nullptr;
  ~OpenStore() { component.reset(); }
};

std::unique_ptr<OpenStore> open_store(const CommandLine& line) {
  Config config = config_from(line);
  set_log_level(config.log_level());
  auto out = std::make_unique<OpenStore>();
  if (auto store = line.value("store")) config.set("cache", *store, "--store " + *store);
  const auto name = config.selected(ComponentKind::cache);
  if (!name) {
    throw error(error_category::config, config.origin().path +
                                            ": no cache store is selected; set [cache] use = \"disk\" "
                                            "or pass --store NAME");
  }
  out->name = *name;
  PluginRegistry registry(plugin_search_path(config));
  const PluginListing* listing = registry.find(ComponentKind::cache, *name);
  if (!listing) {
    throw error(error_category::config,
                not_installed_message(registry, ComponentKind::cache, *name,
                                      config.origin_of("cache.use")));
  }
  out->library = PluginLibrary::load(*listing);
    PluginContext context{config.options_for(ComponentKind::cache, *name), no_components()};
  out->component = out->library->create(context);
  out->store = dynamic_cast<CacheStore*>(out->component.get());
  if (!out->store) throw error(error_category::plugin, "plugin cache/" + *name + " did not create a cache store");
  return out;
}

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  std::ostringstream out;
  if (unit == 0) out << bytes << " B";
  else out << std::fixed << std::setprecision(1) << value << ' ' << units[unit];
  return out.str();
}

std::string time_text(std::chrono::system_clock::time_point time) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  localtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

std::string shortened(const std::string& text, std::size_t width) {
  std::string flat;
  for (char c : text) flat.push_back(c == '\n' || c == '\t' ? ' ' : c);
  if (flat.empty()) return "-";
  return flat.size() <= width ? flat : flat.substr(0, width - 3) + "...";
}

std::uint64_t parse_bytes(const std::string& text) {
  if (auto bytes = parse_byte_size(text)) return *bytes;
  throw usage_error("--max-size expects a size in bytes (suffixes K, M, G, T), found '" + text + "'");
}

std::chrono::seconds parse_days(const std::string& text) {
  std::size_t end = 0;
  double days = -1;
  try {
    days = std::stod(text, &end);
  } catch (const std::exception&) {
  }
  if (days < 0 || end != text.size() || !std::isfinite(days)) {
    throw usage_error("--max-age expects a number of days, found '" + text + "'");
  }
  return std::chrono::seconds(static_cast<std::int64_t>(days * 86400));
}

int stats(CacheStore& store, const std::string& name) {
  const auto entries = store.entries();
  std::uint64_t stored = 0, values = 0, read_only = 0;
  std::optional<std::chrono::system_clock::time_point> oldest, newest;
  for (const auto& entry : entries) {
    if (entry.read_only) {
      ++read_only;
      continue;
    }
    stored += entry.stored_bytes;
    values += entry.value_bytes;
    if (!oldest || entry.last_use < *oldest) oldest = entry.last_use;
    if (!newest || entry.last_use > *newest) newest = entry.last_use;
  }
  TablePrinter table({"", ""});
  table.add({"store", "cache/" + name});
  table.add({"entries", std::to_string(entries.size() - read_only)});
  table.add({"size on store", human_bytes(stored) + " (" + std::to_string(stored) + " bytes)"});
  table.add({"size of values", human_bytes(values) + " (" + std::to_string(values) + " bytes)"});
  table.add({"least recent use", oldest ? time_text(*oldest) : "-"});
  table.add({"most recent use", newest ? time_text(*newest) : "-"});
  if (read_only) table.add({"read-only entries", std::to_string(read_only)});
  for (const auto& [fact, value] : store.describe()) table.add({fact, value});
  std::cout << "Cache statistics:\n";
  table.print(std::cout);
  return 0;
}

int list(CacheStore& store) {
  auto entries = store.entries();
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.last_use > b.last_use; });
  TablePrinter table({"ID", "SIZE", "LAST USE", "DEVICE", "IMAGE", "SPEC", "OPTIONS"});
  for (const auto& entry : entries) {
    table.add({entry.id.substr(0, 16) + (entry.read_only ? " (ro)" : ""), human_bytes(entry.stored_bytes),
               time_text(entry.last_use), shortened(entry.key.device, 32), shortened(entry.key.image, 20),
               shortened(entry.key.spec_constants, 12), shortened(entry.key.build_options, 40)});
  }
  table.print(std::cout, "");
  std::cout << entries.size() << (entries.size() == 1 ? " entry\n" : " entries\n");
  return 0;
}

int show(CacheStore& store, const std::string& prefix) {
  int matches = 0;
  for (const auto& entry : store.entries()) {
    if (!entry.id.starts_with(prefix) && !entry.key.image.starts_with(prefix)) continue;
    ++matches;
    std::cout << "id:              " << entry.id << '\n'
              << "location:        " << entry.location << (entry.read_only ? " (read-only layer)" : "") << '\n'
              << "value size:      " << entry.value_bytes << " bytes\n"
              << "stored size:     " << entry.stored_bytes << " bytes\n"
              << "last use:        " << time_text(entry.last_use) << '\n'
              << "device:          " << entry.key.device << '\n'
              << "image:           " << shortened(entry.key.image, 4096) << '\n'
              << "spec constants:  " << shortened(entry.key.spec_constants, 4096) << '\n'
              << "build options:   " << shortened(entry.key.build_options, 4096) << "\n\n";
  }
  if (matches == 0) {
    throw error(error_category::invalid_argument, "no cache entry has an id or image starting with '" + prefix +
                                                      "' (see `plexus cache ls`)");
  }
  std::cout << matches << (matches == 1 ? " entry\n" : " entries\n");
  return 0;
}

int verify(CacheStore& store) {
  const CacheVerifyReport report = store.verify();
  for (const auto& problem : report.problems) {
    std::cout << (problem.removed ? "removed " : "damaged (read-only, kept) ") << problem.location << ": "
              << problem.reason << '\n';
  }
  std::cout << "checked " << report.checked << " entries: " << report.good << " good, " << report.problems.size()
            << " problems\n";
  return report.problems.empty() ? 0 : 1;
}

}  // namespace

int cache_command(const std::vector<std::string>& args) {
  CommandLine line(args, {"config", "store", "max-size", "max-age"}, {"help"});
  const auto& words = line.positional();
  if (line.flag("help") || words.empty()) {
    std::cout << cache_usage;
    return words.empty() && !line.flag("help") ? 2 : 0;
  }
  const std::string& sub = words[0];
  static const std::vector<std::string> subcommands = {"stats", "ls", "show", "verify", "prune", "clear"};
  if (std::find(subcommands.begin(), subcommands.end(), sub) == subcommands.end()) {
    throw usage_error("unknown subcommand '" + sub + "' (expected one of: stats, ls, show, verify, prune, clear)");
  }
  const std::size_t wanted = sub == "show" ? 2 : 1;
  if (words.size() != wanted) {
    throw usage_error("plexus cache " + sub + (wanted == 2 ? " takes one ID-PREFIX" : " takes no arguments") + " (see --help)");
  }
  if (sub != "prune" && (line.value("max-size") || line.value("max-age"))) {
    throw usage_error("--max-size and --max-age belong to `plexus cache prune`");
  }
  CachePruneLimits limits;
  if (sub == "prune") {
    if (auto size = line.value("max-size")) limits.max_bytes = parse_bytes(*size);
    if (auto age = line.value("max-age")) limits.max_age = parse_days(*age);
    if (!limits.max_bytes && !limits.max_age) {
      throw usage_error("plexus cache prune needs --max-size and/or --max-age");
    }
  }
  auto open = open_store(line);
  CacheStore& store = *open->store;
  if (sub == "stats") return stats(store, open->name);
  if (sub == "ls") return list(store);
  if (sub == "show") return show(store, words[1]);
  if (sub == "verify") return verify(store);
  if (sub == "prune") {
    const CachePruneReport report = store.prune(limits);
    std::cout << "removed " << report.removed_entries << " entries (" << human_bytes(report.removed_bytes)
              << "); " << report.remaining_entries << " entries (" << human_bytes(report.remaining_bytes)
              << ") remain\n";
    return 0;
  }
  const std::uint64_t removed = store.clear();  // before any output: an error prints no "removed"
  std::cout << "removed " << removed << " entries\n";
  return 0;
}

}  // namespace plexus::tool
