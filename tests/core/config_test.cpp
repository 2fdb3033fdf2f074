// Config parsing, validation and component options: every error names where and what.
#include <catch2/catch.hpp>

#include "plexus/byte_size.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "test_support.hpp"

using plexus::ComponentKind;
using plexus::Config;
using Catch::Matchers::Contains;

namespace {

std::string config_error(const std::string& text, const std::string& name = "bad.toml") {
  try {
    Config::from_string(text, name);
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::config);
    return failure.what();
  }
  FAIL("no error for:\n" << text);
  return {};
}

}  // namespace

TEST_CASE("the built-in default selects the dag scheduler and the known backends") {
  Config config = Config::from_string(Config::builtin_text(), "<built-in default>");
  CHECK(config.origin().source == plexus::ConfigSource::builtin);
  CHECK(config.selected(ComponentKind::scheduler) == "dag");
  CHECK(config.selected_backends() ==
        std::vector<std::string>{"host", "opencl", "cuda", "level_zero", "hip"});
  CHECK(config.skip_missing_backends());
  CHECK(config.log_level() == "warn");  // quiet by default
  CHECK_FALSE(config.selected(ComponentKind::fusion).has_value());
}

TEST_CASE("malformed TOML is reported with file, line and column") {
  std::string message = config_error("[scheduler]\nuse = \"dag\"\nworkers = = 4\n", "my.toml");
  CHECK_THAT(message, Contains("my.toml:3:"));
  CHECK_THAT(message, Contains("malformed TOML"));
}

TEST_CASE("a malformed file names its path") {
  plexus::test::TempDir dir;
  auto file = dir.write("plexus.toml", "[log\nlevel = \"info\"\n");
  try {
    Config::from_file(file);
    FAIL("no error");
  } catch (const plexus::error& failure) {
    CHECK_THAT(failure.what(), Contains(file.string() + ":1:"));
  }
}

TEST_CASE("a missing config file is a clear error") {
  try {
    Config::from_file("/nonexistent/plexus.toml");
    FAIL("no error");
  } catch (const plexus::error& failure) {
    CHECK_THAT(failure.what(), Contains("/nonexistent/plexus.toml") && Contains("no such file"));
  }
}

TEST_CASE("unknown tables and keys are refused with their location") {
  CHECK_THAT(config_error("[schedular]\nuse = \"dag\"\n"),
             Contains("bad.toml:1:1") && Contains("unknown table 'schedular'") &&
                 Contains("scheduler"));
  CHECK_THAT(config_error("[log]\nlevl = \"info\"\n"),
             Contains("bad.toml:2:") && Contains("unknown key 'log.levl'"));
}

TEST_CASE("selections of the wrong type name the key, the expected and the found type") {
  CHECK_THAT(config_error("[scheduler]\nuse = 42\n"),
             Contains("bad.toml:2:7") && Contains("'scheduler.use' must be a string") &&
                 Contains("found integer 42"));
  CHECK_THAT(config_error("[backends]\nuse = [\"host\", 3]\n"),
             Contains("'backends.use[]' must be a string") && Contains("found integer"));
  CHECK_THAT(config_error("[scheduler]\nuse = \"dag\"\ndag = 4\n"),
             Contains("bad.toml:3:") && Contains("'scheduler.dag' must be a table"));
  CHECK_THAT(config_error("[scheduler]\nuse = \"Bad-Name\"\n"),
             Contains("component names are lower-case"));
  CHECK_THAT(config_error("[log]\nlevel = \"loud\"\n"),
             Contains("'log.level' is 'loud'") && Contains("trace"));
}

TEST_CASE("component options are typed, located and tracked") {
  Config config = Config::from_string(
      "[scheduler]\nuse = \"dag\"\n[scheduler.dag]\nworkers = \"four\"\nratio = 2\n"
      "name = \"x\"\nflags = [\"a\", \"b\"]\nunused = true\n",
      "opts.toml");
  plexus::ComponentOptions options = config.options_for(ComponentKind::scheduler, "dag");
  CHECK(options.table_path() == "scheduler.dag");
  CHECK(options.get<double>("ratio", 0.0) == 2.0);
  CHECK(options.get<std::string>("name", "") == "x");
  CHECK(options.get<std::vector<std::string>>("flags", {}) ==
        std::vector<std::string>{"a", "b"});
  CHECK(options.get<std::int64_t>("absent", 7) == 7);
  try {
    options.get<std::int64_t>("workers", 1);
    FAIL("no error");
  } catch (const plexus::error& failure) {
    CHECK_THAT(failure.what(), Contains("opts.toml:4:11") &&
                                   Contains("option 'scheduler.dag.workers' must be an integer") &&
                                   Contains("found string \"four\""));
  }
  auto unused = options.unused_keys();
  REQUIRE(unused.size() == 1);
  CHECK_THAT(unused[0], Contains("opts.toml:8:") && Contains("scheduler.dag.unused"));
}

TEST_CASE("a plugin reports its own option errors with the option's position") {
  Config config = Config::from_string(
      "[scheduler]\nuse = \"heft\"\n[scheduler.heft]\nprior = \"compute_unit\"\nlimit = 7\n",
      "own.toml");
  auto options = config.options_for(ComponentKind::scheduler, "heft");
  CHECK_THROWS_WITH(options.get_one_of("prior", {"compute_units", "none"}, "none"),
                    Contains("own.toml:4:9: option 'scheduler.heft.prior' must be one of "
                             "\"compute_units\", \"none\", found \"compute_unit\"; did you mean "
                             "\"compute_units\"?"));
  CHECK(options.get_one_of("absent", {"a", "b"}, "b") == "b");
  CHECK_THROWS_WITH(options.error("limit", "must be a power of two, found 7"),
                    Contains("own.toml:5:9: option 'scheduler.heft.limit' must be a power of two"));
  CHECK_THROWS_WITH(options.error("missing", "is required"),
                    Contains("option 'scheduler.heft.missing' is required"));
  CHECK_THROWS_WITH(Config::from_string("[scheduler.dag]\nworkers = -2\n", "neg.toml")
                        .options_for(ComponentKind::scheduler, "dag")
                        .get_non_negative("workers", 1),
                    Contains("neg.toml:2:11: option 'scheduler.dag.workers' must be 0 or positive"));
}

TEST_CASE("[config] base takes \"none\" or \"inherited\"") {
  CHECK_NOTHROW(Config::from_string("[config]\nbase = \"none\"\n", "t.toml"));
  CHECK_NOTHROW(Config::from_string("[config]\nbase = \"inherited\"\n", "t.toml"));
  CHECK_THAT(config_error("[config]\nbase = \"nothing\"\n"),
             Contains("bad.toml:2:8") && Contains("'config.base' is 'nothing'"));
  CHECK_THAT(config_error("[config]\ninherit = false\n"),
             Contains("bad.toml:2:1") && Contains("unknown key 'config.inherit'"));
}

TEST_CASE("an unknown table suggests the nearest") {
  CHECK_THAT(config_error("[schedular]\nuse = \"dag\"\n"),
             Contains("unknown table 'schedular'; did you mean 'scheduler'?"));
}

TEST_CASE("options of a component without a table are empty") {
  Config config = Config::from_string("[scheduler]\nuse = \"inorder\"\n", "t.toml");
  auto options = config.options_for(ComponentKind::scheduler, "inorder");
  CHECK(options.keys().empty());
  CHECK(options.get<bool>("anything", true));
}

TEST_CASE("overrides replace selections and are recorded") {
  Config config = Config::from_string(Config::builtin_text(), "<built-in default>");
  Config original = config;
  config.set("scheduler", "fifo", "--set scheduler=fifo");
  config.set("backends", " host , opencl ", "--set backends=host,opencl");
  config.set("log.level", "debug", "--set log.level=debug");
  CHECK(config.selected(ComponentKind::scheduler) == "fifo");
  CHECK(config.selected_backends() == std::vector<std::string>{"host", "opencl"});
  CHECK(config.log_level() == "debug");
  CHECK(config.overrides().size() == 3);
  CHECK(original.selected(ComponentKind::scheduler) == "dag");  // copies are unaffected
  CHECK_THROWS_WITH(config.set("shceduler", "x", "--set shceduler=x"),
                    Contains("unknown setting 'shceduler'"));
  CHECK_THROWS_WITH(config.set("log.level", "loud", "PLEXUS_LOG_LEVEL=loud"),
                    Contains("PLEXUS_LOG_LEVEL=loud") && Contains("'log.level' is 'loud'"));
}

TEST_CASE("[program_cache] max_bytes takes a byte count or a size string") {
  auto limit = [](const std::string& value) {
    return Config::from_string("[program_cache]\nmax_bytes = " + value + "\n", "pc.toml")
        .program_cache_max_bytes();
  };
  const Config builtin = Config::from_string(Config::builtin_text(), "<built-in default>");
  CHECK(builtin.program_cache_max_bytes() == 0);  // unbounded
  CHECK(Config::from_string("[log]\nlevel = \"info\"\n", "t.toml").program_cache_max_bytes() == 0);
  CHECK(limit("0") == 0);
  CHECK(limit("1048576") == 1048576);
  CHECK(limit("\"256MiB\"") == 256u << 20);
  CHECK(limit("\"64 KiB\"") == 64u << 10);
  CHECK(limit("\"1.5G\"") == 3ull << 29);
  CHECK(limit("\"4096\"") == 4096);
  Config config = Config::from_string(Config::builtin_text(), "<built-in default>");
  config.set("program_cache.max_bytes", "8k", "--set program_cache.max_bytes=8k");
  CHECK(config.program_cache_max_bytes() == 8192);
  CHECK_THROWS_WITH(config.set("program_cache.max_bytes", "lots", "--set max=lots"),
                    Contains("--set max=lots") && Contains("'program_cache.max_bytes'") &&
                        Contains("found string \"lots\""));
}

TEST_CASE("a bad [program_cache] max_bytes names the file, line, key and value") {
  const std::string expected = "'program_cache.max_bytes' must be a size in bytes, 0 or more";
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = -1\n"),
             Contains("bad.toml:2:13") && Contains(expected) && Contains("found integer -1"));
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = \"lots\"\n"),
             Contains("bad.toml:2:13") && Contains(expected) && Contains("found string \"lots\""));
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = \"12 parsecs\"\n"),
             Contains(expected) && Contains("\"12 parsecs\""));
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = \"-3MiB\"\n"), Contains(expected));
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = true\n"),
             Contains("bad.toml:2:13") && Contains(expected) && Contains("found boolean true"));
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = 1.5\n"),
             Contains(expected) && Contains("found float 1.5"));
  CHECK_THAT(config_error("[program_cache]\nmax_bytes = [1]\n"),
             Contains(expected) && Contains("found array"));
  CHECK_THAT(config_error("[program_cache]\nmax_byte = 10\n"),
             Contains("bad.toml:2:1") && Contains("unknown key 'program_cache.max_byte'") &&
                 Contains("expected: max_bytes"));
  CHECK_THAT(config_error("program_cache = 10\n"),
             Contains("bad.toml:1:") && Contains("'program_cache' must be a table"));
}

TEST_CASE("parse_byte_size reads sizes as people write them") {
  using plexus::parse_byte_size;
  CHECK(parse_byte_size("0") == 0u);
  CHECK(parse_byte_size("123") == 123u);
  CHECK(parse_byte_size("123B") == 123u);
  CHECK(parse_byte_size("2k") == 2048u);
  CHECK(parse_byte_size("2KB") == 2048u);
  CHECK(parse_byte_size("3MiB") == 3u << 20);
  CHECK(parse_byte_size("3 mib") == 3u << 20);
  CHECK(parse_byte_size("0.5M") == 512u << 10);
  CHECK(parse_byte_size("1T") == 1ull << 40);
  CHECK(parse_byte_size("18446744073709551615") == UINT64_MAX);
  for (const char* bad : {"", " 1", "-1", "1.5", "1.", ".5K", "1e6", "0x10", "10 XB", "1  MiB",
                          "MiB", "18446744073709551616", "16777216T", "1K "}) {
    INFO(bad);
    CHECK_FALSE(parse_byte_size(bad).has_value());
  }
}

TEST_CASE("plugin paths resolve relative to the config file") {
  plexus::test::TempDir dir;
  auto file = dir.write("conf/plexus.toml", "[plugins]\npaths = [\"plugins\", \"/abs\"]\n");
  Config config = Config::from_file(file);
  auto paths = config.plugin_paths();
  REQUIRE(paths.size() == 2);
  CHECK(paths[0] == dir.path() / "conf" / "plugins");
  CHECK(paths[1] == "/abs");
}

TEST_CASE("[trace] file follows the plugin paths' rule: relative to the config file") {
  plexus::test::TempDir dir;
  auto file = dir.write("conf/plexus.toml", "[trace]\nfile = \"traces/run.json\"\n");
  plexus::test::ScopedWorkingDir cwd(dir.path());
  CHECK(Config::from_file(file).trace_file() == (dir.path() / "conf" / "traces" / "run.json").string());
  // PLEXUS_TRACE is relative to the working directory, where it was typed.
  plexus::test::ScopedEnv trace("PLEXUS_TRACE", "env.json");
  CHECK(Config::load(file).trace_file() == (dir.path() / "env.json").string());
}

TEST_CASE("the config in force renders back to TOML that parses") {
  Config config = Config::from_string(Config::builtin_text(), "<built-in default>");
  Config again = Config::from_string(config.to_toml(), "rendered");
  CHECK(again.selected(ComponentKind::scheduler) == "dag");
  CHECK(again.selected_backends() == config.selected_backends());
}

TEST_CASE("every shipped config file is valid") {
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           plexus::test::env_path("PLEXUS_SOURCE_DIR") / "config" / "examples")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".toml") continue;
    INFO(entry.path());
    CHECK_NOTHROW(Config::from_file(entry.path()));
    ++checked;
  }
  CHECK(checked >= 9);  // config/examples/*.toml and config/examples/ab/*.toml
  CHECK_NOTHROW(
      Config::from_file(plexus::test::env_path("PLEXUS_SOURCE_DIR") / "config" / "default.toml"));
}

TEST_CASE("a directory is not a config file") {
  plexus::test::TempDir dir;
  CHECK_THROWS_WITH(Config::from_file(dir.path()), Contains("it is a directory"));
}
