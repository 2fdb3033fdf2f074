// plexus_plugin_smoke FILE: loads one plugin the way the runtime does (listing from its
// entry symbol, dlopen RTLD_NOW | RTLD_LOCAL, handshake) and creates its component with a
// config that selects only it. Exit 0 and "ok" on success; the error and 1 otherwise.
#include <iostream>

#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: plexus_plugin_smoke PLUGIN_FILE\n";
    return 2;
  }
  try {
    std::filesystem::path file = std::filesystem::absolute(argv[1]);
    plexus::PluginListing listing = plexus::PluginRegistry::inspect(file);
    auto library = plexus::PluginLibrary::load(listing);
    std::string kind(plexus::to_string(listing.kind));
    std::string text = listing.kind == plexus::ComponentKind::backend
                           ? "[backends]\nuse = [\"" + listing.name + "\"]\n"
                           : "[" + kind + "]\nuse = \"" + listing.name + "\"\n";
    plexus::Config config = plexus::Config::from_string(text, "smoke-test.toml");
    plexus::PluginRegistry registry({{file.parent_path(), "smoke test"}});
    plexus::ComponentSet components(config, registry);
    auto loaded = components.loaded(listing.kind);
    if (!loaded || loaded->path != file) {
      std::cerr << "the component created is not the one from " << file << '\n';
      return 1;
    }
    std::cout << "ok: " << kind << " '" << listing.name << "' " << library->version() << '\n';
    return 0;
  } catch (const std::exception& failure) {
    std::cerr << failure.what() << '\n';
    return 1;
  }
}
