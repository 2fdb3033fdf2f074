// Shared by the runtime benchmarks: "--name value" integer options, medians, and a Runtime
// over the default config with selections overridden (scheduler, memory, backends, ...).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <plexus/config.hpp>

namespace bench {

using clock = std::chrono::steady_clock;

inline double seconds_since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}

inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

// "--key N" pairs over `defaults`; anything else prints usage and exits 2.
inline std::map<std::string, long> parse_options(int argc, char** argv,
                                                 std::map<std::string, long> defaults) {
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    char* end = nullptr;
    const long value = i + 1 < argc ? std::strtol(argv[i + 1], &end, 10) : 0;
    if (!key.starts_with("--") || !defaults.count(key.substr(2)) || !end || *end || value <= 0) {
      std::cerr << "usage: " << argv[0];
      for (const auto& [name, fallback] : defaults) std::cerr << " [--" << name << " " << fallback << "]";
      std::cerr << "\n";
      std::exit(2);
    }
    defaults[key.substr(2)] = value;
  }
  return defaults;
}

// The config in force (layers, environment) with `selections` applied on top.
inline plexus::Config config_with(const std::vector<std::pair<std::string, std::string>>& selections) {
  plexus::Config config = plexus::Config::load();
  for (const auto& [key, value] : selections) config.set(key, value, "benchmark");
  return config;
}

}  // namespace bench
