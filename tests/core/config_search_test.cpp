// Config::load: the layers (built-in default, system, user and project files), the
// environment overrides, and where each value came from.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>

#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "test_support.hpp"

using plexus::ComponentKind;
using plexus::Config;
using plexus::ConfigSource;
using plexus::test::ScopedEnv;
using plexus::test::ScopedWorkingDir;
using plexus::test::TempDir;
using Catch::Matchers::Contains;

namespace {

// A clean environment: no config variables, an empty working and user config directory.
struct CleanEnvironment {
  TempDir root;
  ScopedEnv config{"PLEXUS_CONFIG", std::nullopt};
  ScopedEnv xdg{"XDG_CONFIG_HOME", (root.path() / "xdg").string()};
  ScopedEnv xdg_dirs{"XDG_CONFIG_DIRS", (root.path() / "system").string()};
  ScopedEnv scheduler{"PLEXUS_SCHEDULER", std::nullopt};
  ScopedEnv memory{"PLEXUS_MEMORY", std::nullopt};
  ScopedEnv backends{"PLEXUS_BACKENDS", std::nullopt};
  ScopedEnv level{"PLEXUS_LOG_LEVEL", std::nullopt};
  ScopedEnv program_cache{"PLEXUS_PROGRAM_CACHE_MAX_BYTES", std::nullopt};
  ScopedWorkingDir cwd{root.path()};
};

std::string selects(const std::string& scheduler) {
  return "[scheduler]\nuse = \"" + scheduler + "\"\n";
}

}  // namespace

TEST_CASE("the project file: explicit, else PLEXUS_CONFIG, else ./plexus.toml, over the user file") {
  CleanEnvironment env;
  SECTION("nothing present: the built-in default") {
    Config config = Config::load();
    CHECK(config.origin().source == ConfigSource::builtin);
    CHECK(config.selected(ComponentKind::scheduler) == "dag");
  }
  env.root.write("xdg/plexus/plexus.toml", selects("from_user_dir"));
  SECTION("user config dir") {
    Config config = Config::load();
    CHECK(config.origin().source == ConfigSource::user_config_dir);
    CHECK(config.selected(ComponentKind::scheduler) == "from_user_dir");
  }
  env.root.write("plexus.toml", selects("from_cwd"));
  SECTION("working directory beats user dir") {
    Config config = Config::load();
    CHECK(config.origin().source == ConfigSource::working_directory);
    CHECK(config.selected(ComponentKind::scheduler) == "from_cwd");
  }
  auto env_file = env.root.write("env.toml", selects("from_env"));
  ScopedEnv config_env("PLEXUS_CONFIG", env_file.string());
  SECTION("PLEXUS_CONFIG beats the working directory") {
    Config config = Config::load();
    CHECK(config.origin().source == ConfigSource::environment);
    CHECK(config.origin().path == env_file.string());
    CHECK(config.selected(ComponentKind::scheduler) == "from_env");
  }
  SECTION("an explicit path beats everything") {
    auto explicit_file = env.root.write("explicit.toml", selects("explicit"));
    Config config = Config::load(explicit_file);
    CHECK(config.origin().source == ConfigSource::argument);
    CHECK(config.selected(ComponentKind::scheduler) == "explicit");
  }
}

TEST_CASE("PLEXUS_CONFIG naming a missing file is an error, not a silent fallback") {
  CleanEnvironment env;
  ScopedEnv config_env("PLEXUS_CONFIG", (env.root.path() / "missing.toml").string());
  CHECK_THROWS_WITH(Config::load(), Contains("PLEXUS_CONFIG names") && Contains("missing.toml"));
}

TEST_CASE("environment overrides apply on top of the file and are reported") {
  CleanEnvironment env;
  ScopedEnv scheduler("PLEXUS_SCHEDULER", "heft");
  ScopedEnv backends("PLEXUS_BACKENDS", "host,cuda");
  ScopedEnv level("PLEXUS_LOG_LEVEL", "warn");
  Config config = Config::load();
  CHECK(config.selected(ComponentKind::scheduler) == "heft");
  CHECK(config.selected_backends() == std::vector<std::string>{"host", "cuda"});
  CHECK(config.log_level() == "warn");
  auto overrides = config.overrides();
  CHECK(std::find(overrides.begin(), overrides.end(), "PLEXUS_SCHEDULER=heft") != overrides.end());
  CHECK(std::find(overrides.begin(), overrides.end(), "PLEXUS_BACKENDS=host,cuda") !=
        overrides.end());
}

TEST_CASE("a bad environment override names the variable") {
  CleanEnvironment env;
  ScopedEnv scheduler("PLEXUS_SCHEDULER", "No Such!");
  CHECK_THROWS_WITH(Config::load(), Contains("PLEXUS_SCHEDULER=No Such!"));
}

TEST_CASE("PLEXUS_PROGRAM_CACHE_MAX_BYTES overrides [program_cache] max_bytes") {
  CleanEnvironment env;
  CHECK(Config::load().program_cache_max_bytes() == 0);  // the default: unbounded
  env.root.write("plexus.toml", "[program_cache]\nmax_bytes = 4096\n");
  CHECK(Config::load().program_cache_max_bytes() == 4096);
  {
    ScopedEnv size("PLEXUS_PROGRAM_CACHE_MAX_BYTES", "2MiB");
    Config config = Config::load();
    CHECK(config.program_cache_max_bytes() == 2u << 20);
    auto overrides = config.overrides();
    CHECK(std::find(overrides.begin(), overrides.end(), "PLEXUS_PROGRAM_CACHE_MAX_BYTES=2MiB") !=
          overrides.end());
  }
  ScopedEnv bad("PLEXUS_PROGRAM_CACHE_MAX_BYTES", "-5");
  CHECK_THROWS_WITH(Config::load(), Contains("PLEXUS_PROGRAM_CACHE_MAX_BYTES=-5") &&
                                        Contains("'program_cache.max_bytes' must be a size"));
}

TEST_CASE("a project file that sets one key changes that key alone") {
  CleanEnvironment env;
  const Config builtin = Config::from_string(Config::builtin_text(), "<built-in default>");
  env.root.write("plexus.toml", selects("inorder"));
  Config config = Config::load();
  CHECK(config.selected(ComponentKind::scheduler) == "inorder");
  CHECK(config.selected_backends() == builtin.selected_backends());
  CHECK(config.skip_missing_backends());
  for (ComponentKind kind : {ComponentKind::memory, ComponentKind::compiler, ComponentKind::cache}) {
    CHECK(config.selected(kind) == builtin.selected(kind));
    CHECK(config.selected(kind).has_value());
  }
  CHECK(config.origin_of("scheduler.use") ==
        (env.root.path() / "plexus.toml").string() + ":2:7");
  CHECK_THAT(config.origin_of("memory.use"), Catch::Matchers::StartsWith("<built-in default>:"));
  CHECK_THAT(config.origin_of("backends.use", "cuda"),
             Catch::Matchers::StartsWith("<built-in default>:"));
  REQUIRE(config.layers().size() == 2);
  CHECK(config.layers()[0].source == ConfigSource::builtin);
  CHECK(config.layers()[1].source == ConfigSource::working_directory);
}

TEST_CASE("layers apply lowest first: built-in, system, user, project, environment, API") {
  CleanEnvironment env;
  env.root.write("system/plexus/plexus.toml",
                 "[memory]\nuse = \"whole\"\n[scheduler]\nuse = \"from_system\"\n"
                 "[log]\nlevel = \"error\"\n");
  env.root.write("xdg/plexus/plexus.toml",
                 "[scheduler]\nuse = \"dag\"\n[scheduler.dag]\nworkers = 2\nspin_us = 10\n");
  env.root.write("plexus.toml", "[scheduler.dag]\nworkers = 4\n[log]\nlevel = \"info\"\n");
  ScopedEnv memory("PLEXUS_MEMORY", "exact");
  Config config = Config::load();
  config.set("log.level", "debug", "--log debug");
  REQUIRE(config.layers().size() == 4);
  CHECK(config.layers()[1].source == ConfigSource::system_config_dir);
  CHECK(config.layers()[2].source == ConfigSource::user_config_dir);
  CHECK(config.layers()[3].source == ConfigSource::working_directory);
  CHECK(config.selected(ComponentKind::scheduler) == "dag");        // user over system
  CHECK(config.selected(ComponentKind::memory) == "exact");         // environment over system
  CHECK(config.origin_of("memory.use") == "PLEXUS_MEMORY=exact");
  CHECK(config.selected(ComponentKind::compiler) == "clang");       // built-in, untouched
  CHECK(config.log_level() == "debug");                             // API argument over all
  auto options = config.options_for(ComponentKind::scheduler, "dag");
  CHECK(options.get<std::int64_t>("workers", 0) == 4);  // the project's, key by key
  CHECK(options.get<std::int64_t>("spin_us", 0) == 10);  // the user's, kept
  CHECK(config.origin_of("scheduler.dag.spin_us") ==
        (env.root.path() / "xdg/plexus/plexus.toml").string() + ":5:11");
  bool listed = false;
  for (const auto& value : config.values()) {
    if (value.key == "scheduler.dag.workers") {
      listed = true;
      CHECK(value.value == "4");
      CHECK(value.origin == (env.root.path() / "plexus.toml").string() + ":2:11");
    }
  }
  CHECK(listed);
}

TEST_CASE("[config] base = \"none\" starts from nothing") {
  CleanEnvironment env;
  env.root.write("xdg/plexus/plexus.toml", "[memory]\nuse = \"whole\"\n");
  env.root.write("plexus.toml", "[config]\nbase = \"none\"\n" + selects("inorder"));
  Config config = Config::load();
  CHECK(config.selected(ComponentKind::scheduler) == "inorder");
  CHECK(config.selected_backends().empty());
  CHECK_FALSE(config.selected(ComponentKind::memory).has_value());
  CHECK_FALSE(config.selected(ComponentKind::compiler).has_value());
  REQUIRE(config.layers().size() == 1);
  CHECK(config.layers()[0].source == ConfigSource::working_directory);
  SECTION("a user file can start from nothing too; the project file goes on top of it") {
    env.root.write("xdg/plexus/plexus.toml", "[config]\nbase = \"none\"\n[memory]\nuse = \"whole\"\n");
    env.root.write("plexus.toml", selects("inorder"));
    Config layered = Config::load();
    CHECK(layered.selected(ComponentKind::memory) == "whole");
    CHECK(layered.selected(ComponentKind::scheduler) == "inorder");
    CHECK(layered.selected_backends().empty());
    CHECK(layered.layers().size() == 2);
  }
}

TEST_CASE("relative plugin paths resolve against the layer that names them") {
  CleanEnvironment env;
  env.root.write("xdg/plexus/plexus.toml", "[plugins]\npaths = [\"user_plugins\"]\n");
  Config config = Config::load();
  REQUIRE(config.plugin_paths().size() == 1);
  CHECK(config.plugin_paths()[0] == env.root.path() / "xdg/plexus/user_plugins");
}

TEST_CASE("a component option set as an API argument is typed and named in errors") {
  CleanEnvironment env;
  Config config = Config::load();
  config.set("scheduler.dag.workers", "1", "--set scheduler.dag.workers=1");
  CHECK(config.options_for(ComponentKind::scheduler, "dag").get<std::int64_t>("workers", 0) == 1);
  CHECK(config.origin_of("scheduler.dag.workers") == "--set scheduler.dag.workers=1");
  config.set("scheduler.dag.workers", "many", "--set scheduler.dag.workers=many");
  CHECK_THROWS_WITH(
      config.options_for(ComponentKind::scheduler, "dag").get<std::int64_t>("workers", 0),
      Contains("--set scheduler.dag.workers=many: option 'scheduler.dag.workers' must be an "
               "integer, found string \"many\""));
}

TEST_CASE("a PLEXUS_* variable Plexus does not read is a warning with the nearest name") {
  CleanEnvironment env;
  ScopedEnv typo("PLEXUS_SHEDULER", "heft");
  ScopedEnv test_only("PLEXUS_TEST_SOMETHING", "1");
  Config config = Config::load();
  std::string about_typo;
  for (const auto& warning : config.warnings()) {
    if (warning.find("PLEXUS_SHEDULER") != std::string::npos) about_typo = warning;
    CHECK(warning.find("PLEXUS_TEST_SOMETHING") == std::string::npos);  // reserved for tests
  }
  CHECK_THAT(about_typo, Contains("environment variable PLEXUS_SHEDULER is not one Plexus reads") &&
                             Contains("did you mean PLEXUS_SCHEDULER?"));
  CHECK(config.selected(ComponentKind::scheduler) == "dag");
}

TEST_CASE("every PLEXUS_* variable the sources read is one Plexus knows (no warning)") {
  // Each whole string literal "PLEXUS_NAME" in the product's sources: set alone, Config::load
  // must not call it unknown (a variable the product reads, warned about as a typo, tells
  // users to remove a setting that works). A load that fails on the value "1" read it.
  const std::filesystem::path source = plexus::test::env_path("PLEXUS_SOURCE_DIR");
  const std::regex literal("\"(PLEXUS_[A-Z0-9_]*[A-Z0-9])\"");
  std::set<std::string> names;
  for (const char* tree : {"core", "backends", "components", "tools", "sdk", "syclbin"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(source / tree)) {
      const auto extension = entry.path().extension();
      if (!entry.is_regular_file() || (extension != ".cpp" && extension != ".hpp")) continue;
      std::ifstream in(entry.path());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      for (std::sregex_iterator it(text.begin(), text.end(), literal), end; it != end; ++it)
        names.insert((*it)[1].str());
    }
  }
  CHECK(names.count("PLEXUS_CUDA_COMPLETION_GRACE_US") == 1);  // the scan finds them
  CHECK(names.size() >= 30);
  for (const std::string& name : names) {
    if (name.starts_with("PLEXUS_TEST_") || name.starts_with("PLEXUS_BENCH_")) continue;
    INFO(name);
    CleanEnvironment env;
    ScopedEnv set(name.c_str(), "1");
    try {
      for (const auto& warning : Config::load().warnings())
        CHECK(warning.find(name + " is not one Plexus reads") == std::string::npos);
    } catch (const plexus::error&) {
      // refused its value: read
    }
  }
}

TEST_CASE("a bad value in a lower layer names that layer's file") {
  CleanEnvironment env;
  env.root.write("xdg/plexus/plexus.toml", "[scheduler]\nuse = 3\n");
  env.root.write("plexus.toml", selects("inorder"));
  CHECK_THROWS_WITH(Config::load(), Contains("xdg/plexus/plexus.toml:2:7") &&
                                        Contains("'scheduler.use' must be a string"));
}
