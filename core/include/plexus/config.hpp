// Config: the configuration in force: which implementation of each kind, which backends,
// each component's options, plugin directories and the log level.
//
// Search order (first found wins): an explicit path (API argument or --config),
// PLEXUS_CONFIG, ./plexus.toml, $XDG_CONFIG_HOME/plexus/plexus.toml (else
// ~/.config/plexus/plexus.toml), then the built-in default (config/default.toml, embedded).
// Environment overrides are applied on top: PLEXUS_SCHEDULER, PLEXUS_MEMORY, PLEXUS_CACHE,
// PLEXUS_COMPILER, PLEXUS_FUSION, PLEXUS_BACKENDS (comma-separated), PLEXUS_LOG_LEVEL,
// PLEXUS_TRACE, PLEXUS_PROGRAM_CACHE_MAX_BYTES.
//
// Errors (plexus::error(config)) name the file, line and column, the key, what was
// expected and what was found. Thread-safety: immutable after loading; copies are cheap.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/component_kind.hpp"
#include "plexus/component_options.hpp"
#include "plexus/export.hpp"

namespace plexus {

enum class ConfigSource { argument, environment, working_directory, user_config_dir, builtin };

PLEXUS_API std::string_view to_string(ConfigSource source);

struct ConfigOrigin {
  ConfigSource source = ConfigSource::builtin;
  std::string path;  // the file, or "<built-in default>"
};

class PLEXUS_API Config {
 public:
  class Impl;

  // Finds the config by the search order and applies environment overrides.
  static Config load(const std::optional<std::filesystem::path>& explicit_path = {});
  // Parses one file or text as it is (no search, no environment overrides).
  static Config from_file(const std::filesystem::path& path,
                          ConfigSource source = ConfigSource::argument);
  static Config from_string(std::string_view toml_text, std::string source_name);
  // The built-in default's text.
  static std::string_view builtin_text();

  // Overrides one selection: "scheduler" = "heft", "backends" = "host,opencl", "log.level",
  // "trace.file", "program_cache.max_bytes" (e.g. "256MiB").
  // Recorded in overrides(). Throws plexus::error(config) for an unknown key.
  void set(std::string_view key, std::string_view value, std::string_view why);

  const ConfigOrigin& origin() const;
  std::vector<std::string> overrides() const;  // "PLEXUS_SCHEDULER=heft", ...

  // The implementation selected for a single-instance kind (not backend); empty if none.
  std::optional<std::string> selected(ComponentKind kind) const;
  std::vector<std::string> selected_backends() const;
  // `[backends] skip_missing`: backends named but not installed are skipped with a warning.
  bool skip_missing_backends() const;
  // The `[<kind>.<name>]` table (backends: `[backends.<name>]`); empty if absent.
  ComponentOptions options_for(ComponentKind kind, std::string_view name) const;

  // `[plugins] paths`, relative entries resolved against the config file's directory.
  std::vector<std::filesystem::path> plugin_paths() const;
  std::string log_level() const;  // "info" unless set
  // `[trace] file` (PLEXUS_TRACE overrides): where the runtime writes its trace at shutdown
  // (and the summary next to it, see docs/tracing.md); empty: tracing off.
  std::string trace_file() const;
  // `[program_cache] max_bytes` (PLEXUS_PROGRAM_CACHE_MAX_BYTES overrides): the bound on each
  // level of the runtime's in-memory program cache (see Runtime::program_cache_stats); an
  // integer or a size string such as "256MiB"; 0 (the default): unbounded.
  std::uint64_t program_cache_max_bytes() const;

  std::string to_toml() const;  // the config in force (overrides applied)

 private:
  explicit Config(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

}  // namespace plexus
