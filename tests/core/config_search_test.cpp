// Config::load: the documented search order and the environment overrides.
#include <catch2/catch.hpp>

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
  ScopedEnv scheduler{"PLEXUS_SCHEDULER", std::nullopt};
  ScopedEnv backends{"PLEXUS_BACKENDS", std::nullopt};
  ScopedEnv level{"PLEXUS_LOG_LEVEL", std::nullopt};
  ScopedEnv program_cache{"PLEXUS_PROGRAM_CACHE_MAX_BYTES", std::nullopt};
  ScopedWorkingDir cwd{root.path()};
};

std::string selects(const std::string& scheduler) {
  return "[scheduler]\nuse = \"" + scheduler + "\"\n";
}

}  // namespace

TEST_CASE("search order: explicit, PLEXUS_CONFIG, ./plexus.toml, user dir, built-in") {
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
