// Shared by the examples: "--name value" options with defaults, and a one-line summary of
// the runtime (devices, scheduler, memory policy) for their output.
#pragma once

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include <plexus/plexus.hpp>

namespace examples {

// Parses "--key value" pairs; unknown keys or values that are not non-negative integers (or
// zero where the default is not zero) end the program with a usage message (exit 2).
class Options {
 public:
  Options(int argc, char** argv, std::map<std::string, std::size_t> defaults)
      : values_(std::move(defaults)) {
    for (int i = 1; i < argc; i += 2) {
      const std::string key = argv[i];
      if (!key.starts_with("--") || !values_.count(key.substr(2)) || i + 1 >= argc) usage(argv[0]);
      char* end = nullptr;
      const unsigned long long value = std::strtoull(argv[i + 1], &end, 10);
      if (!end || *end != '\0' || argv[i + 1][0] == '-' || (value == 0 && values_[key.substr(2)] != 0))
        usage(argv[0]);
      values_[key.substr(2)] = value;
    }
  }
  std::size_t operator[](const std::string& key) const { return values_.at(key); }

 private:
  [[noreturn]] void usage(const char* program) const {
    std::cerr << "usage: " << program;
    for (const auto& [key, value] : values_) std::cerr << " [--" << key << " N (" << value << ")]";
    std::cerr << "\n";
    std::exit(2);
  }
  std::map<std::string, std::size_t> values_;
};

// The device `--device I` names: an index into runtime.devices() (0: the first).
inline plexus::Device& pick_device(plexus::Runtime& runtime, std::size_t index) {
  const auto devices = runtime.devices();
  if (devices.empty()) {
    throw plexus::error(plexus::error_category::unsupported,
                        "the runtime has no device: no backend the config selects has an "
                        "available device (`plexus info` shows the config in force, each backend "
                        "and why it is unavailable)");
  }
  if (index >= devices.size()) {
    std::string names;
    for (std::size_t i = 0; i < devices.size(); ++i)
      names += "\n  " + std::to_string(i) + ": " + devices[i]->info().name;
    throw plexus::error(plexus::error_category::invalid_argument,
                        "--device " + std::to_string(index) + ": the runtime has " +
                            std::to_string(devices.size()) + " device(s):" + names);
  }
  return *devices[index];
}

inline std::string component_name(const plexus::Runtime& runtime, plexus::ComponentKind kind) {
  const auto loaded = runtime.components().loaded(kind);
  return loaded ? loaded->name : "none";
}

// "device 'X' (scheduler dag, memory paged)"
inline std::string describe(const plexus::Runtime& runtime, const plexus::Device& device) {
  return "device '" + device.info().name + "' (scheduler " +
         component_name(runtime, plexus::ComponentKind::scheduler) + ", memory " +
         component_name(runtime, plexus::ComponentKind::memory) + ")";
}

}  // namespace examples
