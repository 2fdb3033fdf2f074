// PluginRegistry: discovery without loading, refusals that name the file and the cause,
// and a deterministic choice between duplicates.
#include <catch2/catch.hpp>

#include "plexus/error.hpp"
#include "plexus/plugin_abi.h"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "test_support.hpp"

using plexus::ComponentKind;
using plexus::PluginRegistry;
using plexus::test::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

fs::path inorder_plugin() { return plexus::test::build_plugin_dir() / "libplexus_scheduler_inorder.so"; }

std::string problem_for(const PluginRegistry& registry, const fs::path& file) {
  for (const auto& problem : registry.problems()) {
    if (problem.path == file) return problem.message;
  }
  return "";
}

}  // namespace

TEST_CASE("the build tree's plugins are listed without being loaded") {
  REQUIRE(fs::exists(inorder_plugin()));
  PluginRegistry registry({{plexus::test::build_plugin_dir(), "build tree"}});
  const plexus::PluginListing* inorder = registry.find(ComponentKind::scheduler, "inorder");
  REQUIRE(inorder != nullptr);
  CHECK(inorder->abi_version == PLEXUS_PLUGIN_ABI_VERSION);
  CHECK(inorder->entry_symbol == "plexus_plugin_abi5__scheduler__inorder");
  CHECK(inorder->found_in == "build tree");
  CHECK(registry.problems().empty());
  CHECK_FALSE(plexus::test::is_mapped(inorder->path));  // listed, never loaded
}

TEST_CASE("the default search path starts with the build tree") {
  auto config = plexus::Config::from_string("[plugins]\npaths = [\"/from/config\"]\n", "t.toml");
  plexus::test::ScopedEnv env("PLEXUS_PLUGIN_PATH", "/from/env/a:/from/env/b");
  auto dirs = plexus::plugin_search_path(config);
  REQUIRE(dirs.size() == 4);
  CHECK(fs::equivalent(dirs[0].path, plexus::test::build_plugin_dir()));
  CHECK(dirs[0].origin == "build tree");
  CHECK(dirs[1].path == "/from/env/a");
  CHECK(dirs[2].path == "/from/env/b");
  CHECK(dirs[2].origin == "PLEXUS_PLUGIN_PATH");
  CHECK(dirs[3].path == "/from/config");
  CHECK(dirs[3].origin == "config");
}

TEST_CASE("files that are not usable plugins are reported and the others still load") {
  TempDir dir;
  fs::copy_file(inorder_plugin(), dir.path() / "libplexus_scheduler_inorder.so");
  auto garbage = dir.write("libplexus_backend_garbage.so", std::string(5000, 'x'));
  auto empty = dir.write("libplexus_backend_empty.so", "");
  // A truncated copy of a real plugin.
  std::ifstream in(inorder_plugin(), std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  auto truncated = dir.write("libplexus_scheduler_truncated.so", head);
  // A real shared library that is not a Plexus plugin.
  auto foreign = dir.path() / "libplexus_scheduler_foreign.so";
  fs::copy_file(plexus::test::test_plugin_dir("needed-library-elsewhere") /
                    "libplexus_test_needed.so",
                foreign);
  dir.write("unrelated.so", "not named like a plugin: ignored");
  // A real plugin under another plugin's name.
  auto misnamed = dir.path() / "libplexus_scheduler_heft.so";
  fs::copy_file(inorder_plugin(), misnamed);

  PluginRegistry registry({{dir.path(), "test"}});
  CHECK(registry.names(ComponentKind::scheduler) == std::vector<std::string>{"inorder"});
  CHECK(registry.problems().size() == 5);
  CHECK_THAT(problem_for(registry, misnamed),
             Contains("declares scheduler 'inorder'") &&
                 Contains("must be named libplexus_scheduler_inorder.so"));
  CHECK_THAT(problem_for(registry, garbage), Contains(garbage.string()) && Contains("not an ELF file"));
  CHECK_THAT(problem_for(registry, empty), Contains("too short"));
  CHECK_THAT(problem_for(registry, truncated), Contains("truncated or corrupt"));
  CHECK_THAT(problem_for(registry, foreign),
             Contains(foreign.string()) && Contains("not a Plexus plugin"));
  // The good one still loads.
  auto library = plexus::PluginLibrary::load(*registry.find(ComponentKind::scheduler, "inorder"));
  CHECK(library->version() == "0.1.0");
}

TEST_CASE("a plugin built for another ABI is refused without loading, naming both versions") {
  fs::path dir = plexus::test::test_plugin_dir("future-abi");
  fs::path file = dir / "libplexus_scheduler_future_abi.so";
  REQUIRE(fs::exists(file));
  PluginRegistry registry({{dir, "test"}});
  CHECK(registry.plugins().empty());
  std::string message = problem_for(registry, file);
  CHECK_THAT(message, Contains(file.string()) && Contains("built for plugin ABI 6") &&
                          Contains("this core implements plugin ABI 5"));
  CHECK_FALSE(plexus::test::is_mapped(file));
}

TEST_CASE("a plugin with a missing dependency is listed but fails to load, naming the library") {
  fs::path dir = plexus::test::test_plugin_dir("missing-dependency");
  PluginRegistry registry({{dir, "test"}});
  const auto* listing = registry.find(ComponentKind::scheduler, "needs_library");
  REQUIRE(listing != nullptr);
  try {
    plexus::PluginLibrary::load(*listing);
    FAIL("loaded a plugin whose dependency is missing");
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::plugin);
    CHECK_THAT(failure.what(), Contains(listing->path.string()) &&
                                   Contains("libplexus_test_needed.so") &&
                                   Contains("cannot open shared object file"));
  }
}

TEST_CASE("two plugins with the same kind and name: the earlier search entry wins, with a warning") {
  TempDir first, second;
  auto a = first.path() / "libplexus_scheduler_inorder.so";
  auto b = second.path() / "libplexus_scheduler_inorder.so";
  fs::copy_file(inorder_plugin(), a);
  fs::copy_file(inorder_plugin(), b);
  for (int attempt = 0; attempt < 2; ++attempt) {  // the same answer every time
    PluginRegistry registry({{first.path(), "first"}, {second.path(), "second"}});
    REQUIRE(registry.find(ComponentKind::scheduler, "inorder") != nullptr);
    CHECK(registry.find(ComponentKind::scheduler, "inorder")->path == a);
    REQUIRE(registry.warnings().size() == 1);
    CHECK_THAT(registry.warnings()[0],
               Contains(a.string()) && Contains(b.string()) && Contains("using") &&
                   Contains("ignoring"));
  }
  PluginRegistry reversed({{second.path(), "second"}, {first.path(), "first"}});
  CHECK(reversed.find(ComponentKind::scheduler, "inorder")->path == b);
}

TEST_CASE("missing search directories are harmless") {
  PluginRegistry registry(std::vector<plexus::PluginSearchDir>{{"/nonexistent/plexus/plugins", "test"}});
  CHECK(registry.plugins().empty());
  CHECK(registry.problems().empty());
}
