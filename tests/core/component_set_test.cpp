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

namespace {
PluginRegistry build_tree_registry() {
  return PluginRegistry({{plexus::test::build_plugin_dir(), "build tree"}});
}
}  // namespace

TEST_CASE("an unknown component name lists the available ones of that kind") {
  auto config = plexus::Config::from_string("[scheduler]\nuse = \"hetf\"\n", "mine.toml");
  try {
    plexus::ComponentSet components(config, build_tree_registry());
    FAIL("no error");
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::config);
    CHECK_THAT(failure.what(), Contains("mine.toml") && Contains("scheduler 'hetf' is not installed") &&
                                   Contains("available: dag, heft, inorder") && Contains("Searched:"));
  }
}

TEST_CASE("an unknown backend is an error unless skip_missing is set") {
  auto strict = plexus::Config::from_string("[backends]\nuse = [\"warp_drive\"]\n", "t.toml");
  CHECK_THROWS_WITH(plexus::ComponentSet(strict, build_tree_registry()),
                    Contains("backend 'warp_drive' is not installed"));
  auto lenient = plexus::Config::from_string(
      "[backends]\nuse = [\"warp_drive\"]\nskip_missing = true\n", "t.toml");
  plexus::ComponentSet components(lenient, build_tree_registry());
  CHECK(components.backend_count() == 0);
  REQUIRE(components.warnings().size() == 1);
  CHECK_THAT(components.warnings()[0], Contains("warp_drive"));
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
