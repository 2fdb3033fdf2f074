// plexus_cache_helper: a separate process using a cache store, for the multi-process and
// crash tests. usage: plexus_cache_helper CONFIG.toml COMMAND [ARGS]
//   hammer N      for N keys in an order of its own: load; on a miss store the key's value;
//                 load again; exit 1 if any value read is not the key's value
//   store KEY V   store V under KEY (the config may make it pause before publishing)
//   load KEY      print "hit VALUE" or "miss"
// The plugins come from PLEXUS_BUILD_PLUGIN_DIR.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "plexus/cache_store.hpp"
#include "plexus/component_set.hpp"
#include "plexus/config.hpp"
#include "plexus/plugin_registry.hpp"

namespace {
plexus::CacheKey key_of(const std::string& name) { return {"helper device", name, "", "-O2"}; }
std::vector<std::byte> bytes(const std::string& text) {
  std::vector<std::byte> out;
  for (char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}
// A value of a few KiB that depends on the key, so that a torn or mixed-up entry shows.
std::vector<std::byte> value_of(int i) {
  std::string text = "value of key " + std::to_string(i) + ":";
  std::mt19937 random(static_cast<unsigned>(i));
  while (text.size() < 4096) text.push_back(static_cast<char>('a' + random() % 26));
  return bytes(text);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: plexus_cache_helper CONFIG.toml COMMAND [ARGS]\n";
    return 2;
  }
  try {
    const char* plugin_dir = std::getenv("PLEXUS_BUILD_PLUGIN_DIR");
    const std::filesystem::path dir = plugin_dir ? plugin_dir : ".";
    plexus::PluginRegistry registry({{dir, "build tree"}});
    // The file alone (no built-in layers): this process opens the cache store and nothing else.
    plexus::ComponentSet set(plexus::Config::from_file(argv[1]), registry);
    plexus::CacheStore& store = *set.cache();
    const std::string command = argv[2];
    if (command == "hammer" && argc == 4) {
      std::vector<int> order(static_cast<std::size_t>(std::stoi(argv[3])));
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      std::shuffle(order.begin(), order.end(), std::mt19937(static_cast<unsigned>(::getpid())));
      int wrong = 0;
      for (int round = 0; round < 3; ++round) {
        for (int i : order) {
          const auto key = key_of("key " + std::to_string(i));
          auto value = store.load(key);
          if (value && *value != value_of(i)) ++wrong;
          if (!value) store.store(key, value_of(i));
          value = store.load(key);
          if (!value || *value != value_of(i)) ++wrong;
        }
      }
      std::cout << (wrong ? "wrong values: " + std::to_string(wrong) : "ok") << std::endl;
      return wrong ? 1 : 0;
    }
    if (command == "store" && argc == 5) {
      std::cout << "storing" << std::endl;
      store.store(key_of(argv[3]), bytes(argv[4]));
      std::cout << "stored" << std::endl;
      return 0;
    }
    if (command == "load" && argc == 4) {
      auto value = store.load(key_of(argv[3]));
      std::cout << (value ? "hit " + std::string(reinterpret_cast<const char*>(value->data()), value->size())
                          : std::string("miss"))
                << std::endl;
      return 0;
    }
    std::cerr << "plexus_cache_helper: unknown command or wrong arguments\n";
    return 2;
  } catch (const std::exception& failure) {
    std::cerr << "plexus_cache_helper: " << failure.what() << '\n';
    return 3;
  }
}
