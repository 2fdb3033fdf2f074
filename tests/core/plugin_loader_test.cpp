// PluginLibrary: the ABI handshake, fingerprint check, factory errors, and lifetime.
#include <catch2/catch.hpp>

#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/scheduler.hpp"
#include "test_support.hpp"

using plexus::ComponentKind;
using plexus::PluginRegistry;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("a plugin built with another libstdc++ string ABI is refused, naming both") {
  fs::path dir = plexus::test::test_plugin_dir("old-string-abi");
  PluginRegistry registry({{dir, "test"}});
  const auto* listing = registry.find(ComponentKind::scheduler, "old_string_abi");
  REQUIRE(listing != nullptr);
  try {
    plexus::PluginLibrary::load(*listing);
    FAIL("loaded an incompatible plugin");
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::plugin);
    CHECK_THAT(failure.what(), Contains(listing->path.string()) && Contains("cxx11abi=0") &&
                                   Contains("the core has cxx11abi=1"));
  }
}

TEST_CASE("a factory that throws gives an error naming the plugin, with its message") {
  fs::path dir = plexus::test::test_plugin_dir("throws");
  PluginRegistry registry({{dir, "test"}});
  auto config = plexus::Config::from_string("[scheduler]\nuse = \"throws\"\n", "t.toml");
  try {
    plexus::ComponentSet components(config, registry);
    FAIL("no error");
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::device);  // the plugin's own category
    CHECK_THAT(failure.what(), Contains("scheduler 'throws'") &&
                                   Contains("libplexus_scheduler_throws.so") &&
                                   Contains("the test device is on fire"));
  }
}

TEST_CASE("a component keeps its library loaded, and teardown unloads it after the object") {
  fs::path file = plexus::test::build_plugin_dir() / "libplexus_scheduler_inorder.so";
  plexus::test::TempDir dir;
  fs::path copy = dir.path() / file.filename();  // a private copy: nothing else maps it
  fs::copy_file(file, copy);
  PluginRegistry registry({{dir.path(), "test"}});
  auto config = plexus::Config::from_string("[scheduler]\nuse = \"inorder\"\n", "t.toml");
  {
    plexus::ComponentSet components(config, registry);
    CHECK(plexus::test::is_mapped(copy));
    REQUIRE(components.scheduler() != nullptr);
    auto event = std::make_shared<plexus::TaskEvent>("t");
    int ran = 0;
    components.scheduler()->submit({event, {}, [&ran] { ++ran; }});
    event->wait();
    CHECK(ran == 1);
  }
  CHECK_FALSE(plexus::test::is_mapped(copy));
}

TEST_CASE("a loaded library outlives the PluginLibrary handle while its component lives") {
  fs::path file = plexus::test::build_plugin_dir() / "libplexus_scheduler_inorder.so";
  plexus::test::TempDir dir;
  fs::path copy = dir.path() / file.filename();
  fs::copy_file(file, copy);
  auto listing = PluginRegistry::inspect(copy);
  std::shared_ptr<plexus::Component> component;
  {
    auto library = plexus::PluginLibrary::load(listing);
    auto config = plexus::Config::from_string("", "t.toml");
    plexus::ComponentSet empty(config, PluginRegistry({}));
    plexus::PluginContext context{config.options_for(ComponentKind::scheduler, "inorder"), empty};
    component = library->create(context);
  }
  CHECK(plexus::test::is_mapped(copy));
  CHECK(dynamic_cast<plexus::Scheduler*>(component.get()) != nullptr);
  component.reset();
  CHECK_FALSE(plexus::test::is_mapped(copy));
}
