// Config: the configuration in force: which implementation of each kind, which backends,
// each component's options, plugin directories and the log level.
//
// Config::load layers, key by key, lowest first (a layer that sets one key changes that key
// alone):
//   1. the built-in default (config/default.toml, embedded);
//   2. system files: <dir>/plexus/plexus.toml for each $XDG_CONFIG_DIRS entry (default
//      /etc/xdg), the last entry lowest;
//   3. the user file: $XDG_CONFIG_HOME/plexus/plexus.toml (else ~/.config/plexus/plexus.toml);
//   4. the project file: the explicit path (API argument or --config), else PLEXUS_CONFIG,
//      else ./plexus.toml;
//   5. environment overrides: PLEXUS_SCHEDULER, PLEXUS_MEMORY, PLEXUS_CACHE,
//      PLEXUS_COMPILER, PLEXUS_FUSION, PLEXUS_BACKENDS (comma-separated), PLEXUS_LOG_LEVEL,
//      PLEXUS_TRACE, PLEXUS_PROGRAM_CACHE_MAX_BYTES;
//   6. API arguments: set().
// A file holding `[config] base = "none"` starts from nothing: the layers below it are not
// used. Tables merge key by key; any other value (an array included) replaces the one below.
//
// Errors (plexus::error(config)) name the file, line and column (or the variable or
// argument), the key, what was expected and what was found. Thread-safety: immutable after
// loading (set() makes a new state; other copies keep theirs); copies are cheap.
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

enum class ConfigSource {
  argument,           // the explicit path (API argument, --config) or a text
  environment,        // PLEXUS_CONFIG
  working_directory,  // ./plexus.toml
  user_config_dir,    // $XDG_CONFIG_HOME/plexus/plexus.toml
  system_config_dir,  // <$XDG_CONFIG_DIRS entry>/plexus/plexus.toml
  builtin             // config/default.toml, embedded
};

PLEXUS_API std::string_view to_string(ConfigSource source);

struct ConfigOrigin {
  ConfigSource source = ConfigSource::builtin;
  std::string path;  // the file, or "<built-in default>"
};

// One value in force, for `plexus info`: "scheduler.use", "\"dag\"", and where it came from
// ("/etc/xdg/plexus/plexus.toml:3:7", "PLEXUS_SCHEDULER=dag", "<built-in default>:27:7").
struct ConfigValue {
  std::string key;
  std::string value;
  std::string origin;
};

// `[graphs]`: automatic replay of repeated kernel submissions (docs/api.md, "Command
// graphs"; PLEXUS_AUTO_GRAPH=0/1 overrides `auto`).
struct AutoGraphOptions {
  bool enabled = true;          // auto (on by default)
  std::size_t repeats = 3;      // auto_repeats: periods seen before replaying (2..64)
  std::size_t max_period = 64;  // auto_max_period: longest period recognised, kernels (1..1024)
  std::size_t batch = 32;       // auto_batch: kernels a replay holds at least (1..4096)
};

class PLEXUS_API Config {
 public:
  class Impl;

  // Layers the built-in default, the system and user files, the project file (explicit_path,
  // else PLEXUS_CONFIG, else ./plexus.toml) and the environment overrides (see above).
  static Config load(const std::optional<std::filesystem::path>& explicit_path = {});
  // Parses one file or text as it is: no other layer, no environment overrides (what the
  // file says is the whole config, as if it began with `[config] base = "none"`).
  static Config from_file(const std::filesystem::path& path,
                          ConfigSource source = ConfigSource::argument);
  static Config from_string(std::string_view toml_text, std::string source_name);
  // The built-in default's text.
  static std::string_view builtin_text();

  // Overrides one key, on top of every layer: a kind selects its implementation
  // ("scheduler" = "heft", "backends" = "host,opencl"); "log.level", "trace.file" and
  // "program_cache.max_bytes" (e.g. "256MiB") take the text; a component option
  // ("scheduler.dag.workers" = "1") takes a TOML value (1, true, 2.5, ["a"]) or else the
  // text as a string. Recorded in overrides(); `why` names it in messages
  // ("PLEXUS_SCHEDULER=heft", "--set scheduler=heft"). Throws plexus::error(config) for an
  // unknown key or a value the key does not take.
  void set(std::string_view key, std::string_view value, std::string_view why);

  // The topmost file or text in force (the project file, else the user file, ...).
  const ConfigOrigin& origin() const;
  // Every layer in force, lowest first (layers below a `base = "none"` are left out).
  std::vector<ConfigOrigin> layers() const;
  std::vector<std::string> overrides() const;  // "PLEXUS_SCHEDULER=heft", ...
  // Where the value of a dotted key ("scheduler.use") came from: "file:line:col", the
  // override ("PLEXUS_SCHEDULER=heft"), or origin().path when the key is not set. With
  // `element`, the position of that string in an array ("backends.use", "cuda").
  std::string origin_of(std::string_view key, std::string_view element = {}) const;
  // Every value in force (arrays whole), by key, each with origin_of its key.
  std::vector<ConfigValue> values() const;
  // Problems that do not stop a program, e.g. a PLEXUS_* variable Plexus does not read.
  std::vector<std::string> warnings() const;

  // The implementation selected for a single-instance kind (not backend); empty if none.
  std::optional<std::string> selected(ComponentKind kind) const;
  std::vector<std::string> selected_backends() const;
  // `[backends] skip_missing`: backends named but not installed are skipped with a warning.
  bool skip_missing_backends() const;
  // The implementations that have an options table ([scheduler.heft]: "heft"), by name.
  std::vector<std::string> option_tables(ComponentKind kind) const;
  // The `[<kind>.<name>]` table (backends: `[backends.<name>]`); empty if absent.
  ComponentOptions options_for(ComponentKind kind, std::string_view name) const;

  // `[plugins] paths`, relative entries resolved against the config file's directory.
  std::vector<std::filesystem::path> plugin_paths() const;
  std::string log_level() const;  // "warn" unless set
  // `[trace] file` (PLEXUS_TRACE overrides): where the runtime writes its trace at shutdown
  // (and the summary next to it, see docs/tracing.md); empty: tracing off.
  std::string trace_file() const;
  // `[program_cache] max_bytes` (PLEXUS_PROGRAM_CACHE_MAX_BYTES overrides): the bound on each
  // level of the runtime's in-memory program cache (see Runtime::program_cache_stats); an
  // integer or a size string such as "256MiB"; 0 (the default): unbounded.
  std::uint64_t program_cache_max_bytes() const;
  AutoGraphOptions auto_graph() const;

  std::string to_toml() const;  // the config in force (every layer and override applied)

 private:
  explicit Config(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

}  // namespace plexus
