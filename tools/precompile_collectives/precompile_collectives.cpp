// plexus-precompile-collectives PLUGIN DIR: the build step that makes compiler/clang's
// precompiled SYCL collectives for the default command lines (components/compiler/clang/
// README.md, "Precompiled collectives"). It loads the compiler plugin PLUGIN alone (no cache
// store: nothing is found, so everything is built) with `sycl_collectives_output = DIR` and
// compiles a SYCL source that calls the collectives for every target the plugin offers,
// with no build options, to IR (the library is linked by the frontend; no device library or
// back end is needed). The plugin writes each library it builds into DIR; the compilers
// find them there at run time (PrebuiltCollectives). Exit status 1, with the log, when a
// compile fails or no library was written.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "plexus/compiler.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "plexus/no_components.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"

namespace {

namespace fs = std::filesystem;

// Calls a work-group reduce and scan: what makes the frontend link (so build) the library.
constexpr const char* probe_source = R"(#include <sycl/sycl.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void plexus_collectives_probe(int* data) {
  const auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
  const size_t i = it.get_global_id(0);
  data[i] = sycl::reduce_over_group(it.get_group(), data[i], sycl::plus<>()) +
            sycl::inclusive_scan_over_group(it.get_group(), data[i], sycl::plus<int>());
}
)";

std::size_t files_in(const fs::path& dir) {
  std::error_code ignored;
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir, ignored))
    if (entry.path().extension() == ".entry") ++count;
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: plexus-precompile-collectives PLUGIN DIR\n";
    return 2;
  }
  const fs::path plugin = argv[1], dir = argv[2];
  if (dir.string().find('\'') != std::string::npos) {
    std::cerr << "plexus-precompile-collectives: DIR must not contain a quote\n";
    return 2;
  }
  try {
    std::error_code ignored;
    fs::remove_all(dir, ignored);  // libraries of an older build are not kept
    fs::create_directories(dir);
    const plexus::PluginListing listing = plexus::PluginRegistry::inspect(plugin);
    const auto library = plexus::PluginLibrary::load(listing);
    const plexus::Config config = plexus::Config::from_string(
        "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\n"
        "sycl_collectives_dir = \"\"\nsycl_collectives_output = '" + dir.string() + "'\n",
        "precompile_collectives.toml");
    plexus::PluginContext context{config.options_for(plexus::ComponentKind::compiler, "clang"),
                                  plexus::no_components()};
    const std::shared_ptr<plexus::Component> component = library->create(context);
    auto* compiler = dynamic_cast<plexus::Compiler*>(component.get());
    if (!compiler) throw plexus::error(plexus::error_category::plugin, plugin.string() + " is not a compiler");
    for (const plexus::BinaryFormat target : compiler->targets()) {
      plexus::CompileRequest request;
      request.language = plexus::SourceLanguage::sycl;
      request.source = probe_source;
      request.source_name = "plexus_collectives_probe.cpp";
      request.target = target;
      request.emit_ir = true;
      const plexus::CompileResult result = compiler->compile(request);
      if (!result.succeeded) {
        std::cerr << "plexus-precompile-collectives: " << plexus::to_string(target)
                  << ": the probe did not compile:\n" << result.log;
        return 1;
      }
    }
    const std::size_t written = files_in(dir);
    if (written == 0) {
      std::cerr << "plexus-precompile-collectives: no library was written to " << dir << '\n';
      return 1;
    }
    std::cout << "plexus-precompile-collectives: " << written << " libraries in " << dir << '\n';
    return 0;
  } catch (const std::exception& failure) {
    std::cerr << "plexus-precompile-collectives: " << failure.what() << '\n';
    return 1;
  }
}
