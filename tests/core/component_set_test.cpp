// ComponentSet: selection errors list what is available; options nobody reads are warned.
#include <catch2/catch.hpp>

#include "plexus/backend.hpp"
#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plexus/scheduler.hpp"
#include "test_support.hpp"

using plexus::ComponentKind;
using plexus::PluginRegistry;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {
PluginRegistry build_tree_registry() {
  return PluginRegistry({{plexus::test::build_plugin_dir(), "build tree"}});
}
}  // namespace

namespace {
std::string creation_error(const plexus::Config& config, const PluginRegistry& registry) {
  try {
    plexus::ComponentSet components(config, registry);
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::config);
    return failure.what();
  }
  FAIL("no error");
  return {};
}
}  // namespace

TEST_CASE("an unknown component name: where, the nearest name, the available ones") {
  auto config = plexus::Config::from_string("[scheduler]\nuse = \"hetf\"\n", "mine.toml");
  const std::string message = creation_error(config, build_tree_registry());
  CHECK_THAT(message, StartsWith("mine.toml:2:7: scheduler 'hetf' is not installed (did you mean "
                                 "'heft'?); available: dag, heft, inorder. Searched: " +
                                 plexus::test::build_plugin_dir().string() + " (build tree)."));
  CHECK_THAT(message, !Contains(";.") && !Contains("; .") && EndsWith("(build tree)."));
}

TEST_CASE("a component selected by an environment variable is blamed on the variable") {
  plexus::test::TempDir dir;
  auto file = dir.write("mine.toml", "[scheduler]\nuse = \"inorder\"\n");
  plexus::test::ScopedEnv scheduler("PLEXUS_SCHEDULER", "bogus");
  auto config = plexus::Config::load(file);
  CHECK_THAT(creation_error(config, build_tree_registry()),
             StartsWith("PLEXUS_SCHEDULER=bogus: scheduler 'bogus' is not installed;"));
}

TEST_CASE("a backend name that is not installed is an error with a suggestion") {
  auto strict = plexus::Config::from_string("[backends]\nuse = [\"warp_drive\"]\n", "t.toml");
  CHECK_THAT(creation_error(strict, build_tree_registry()),
             Contains("t.toml:2:8: backend 'warp_drive' is not installed; available: ") &&
                 Contains("host"));
  // skip_missing is for backends Plexus has but this build lacks, never for a typo.
  auto typo = plexus::Config::from_string(
      "[backends]\nuse = [\"host\", \"cdua\"]\nskip_missing = true\n", "t.toml");
  CHECK_THAT(creation_error(typo, build_tree_registry()),
             StartsWith("t.toml:2:16: backend 'cdua' is not installed (did you mean 'cuda'?)"));
}

TEST_CASE("skip_missing skips a backend Plexus has that is not installed") {
  plexus::test::TempDir empty;
  auto lenient = plexus::Config::from_string(
      "[backends]\nuse = [\"host\"]\nskip_missing = true\n", "t.toml");
  plexus::ComponentSet components(lenient, PluginRegistry({{empty.path(), "empty"}}));
  CHECK(components.backend_count() == 0);
  CHECK(components.warnings().empty());
  REQUIRE(components.skipped().size() == 1);
  CHECK_THAT(components.skipped()[0], Contains("backend 'host' is not installed (skipped"));
}

TEST_CASE("options for an implementation that is not installed are a warning with a suggestion") {
  auto config = plexus::Config::from_string(
      "[scheduler]\nuse = \"inorder\"\n[scheduler.hetf]\nworkers = 4\n", "t.toml");
  plexus::ComponentSet components(config, build_tree_registry());
  REQUIRE(components.warnings().size() == 1);
  CHECK_THAT(components.warnings()[0],
             StartsWith("t.toml:3:1: [scheduler.hetf] gives options to scheduler 'hetf', which is "
                        "not installed (did you mean [scheduler.heft]?)"));
}

TEST_CASE("the selected scheduler is created and reported") {
  auto config = plexus::Config::from_string("[scheduler]\nuse = \"inorder\"\n", "t.toml");
  plexus::ComponentSet components(config, build_tree_registry());
  REQUIRE(components.scheduler() != nullptr);
  auto loaded = components.loaded(ComponentKind::scheduler);
  REQUIRE(loaded.has_value());
  CHECK(loaded->name == "inorder");
  CHECK(loaded->version == "0.1.0");
  CHECK(loaded->path.filename() == "libplexus_scheduler_inorder.so");
  CHECK(components.memory() == nullptr);
  CHECK(components.compiler() == nullptr);
}

TEST_CASE("options that no component reads are warned about with their location") {
  auto config = plexus::Config::from_string(
      "[scheduler]\nuse = \"inorder\"\n[scheduler.inorder]\nwrokers = 4\n", "typo.toml");
  plexus::ComponentSet components(config, build_tree_registry());
  REQUIRE(components.warnings().size() == 1);
  CHECK_THAT(components.warnings()[0],
             Contains("typo.toml:4:") && Contains("scheduler.inorder.wrokers") &&
                 Contains("is not an option of scheduler 'inorder'"));
}
