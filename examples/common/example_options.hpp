// Shared by the examples: "--name value" options with defaults (integers or words), and a
// one-line summary of the runtime (devices, scheduler, memory policy) for their output.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <plexus/plexus.hpp>

namespace examples {

// Parses "--key value" pairs: integer options over `defaults`, and word options over
// `choices` (each key's allowed words, the first its default). Unknown keys, integers that
// are not non-negative (or zero where the default is not zero) and words not allowed end
// the program with a line saying which argument is wrong and why, then the usage (exit 2).
class Options {
 public:
  Options(int argc, char** argv, std::map<std::string, std::size_t> defaults,
          std::map<std::string, std::vector<std::string>> choices = {})
      : defaults_(defaults), values_(std::move(defaults)), choices_(std::move(choices)) {
    for (const auto& [key, words] : choices_) words_[key] = words.at(0);
    for (int i = 1; i < argc; i += 2) {
      const std::string key = argv[i];
      if (!key.starts_with("--")) usage(argv[0], "'" + key + "': expected an option --NAME VALUE");
      if (i + 1 >= argc) usage(argv[0], key + ": no value");
      const std::string name = key.substr(2), value = argv[i + 1];
      if (const auto allowed = choices_.find(name); allowed != choices_.end()) {
        if (std::find(allowed->second.begin(), allowed->second.end(), value) == allowed->second.end())
          usage(argv[0], key + " " + value + ": expected one of " + join(allowed->second));
        words_[name] = value;
        continue;
      }
      if (!values_.count(name)) usage(argv[0], "unknown option " + key);
      char* end = nullptr;
      const unsigned long long number = std::strtoull(value.c_str(), &end, 10);
      if (!end || *end != '\0' || value.empty() || value[0] == '-' ||
          (number == 0 && defaults_.at(name) != 0))
        usage(argv[0], key + " " + value + ": expected a whole number" +
                           (defaults_.at(name) != 0 ? " of at least 1" : ""));
      values_[name] = number;
    }
  }
  std::size_t operator[](const std::string& key) const { return values_.at(key); }
  const std::string& word(const std::string& key) const { return words_.at(key); }

 private:
  static std::string join(const std::vector<std::string>& words) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) text += (i ? "|" : "") + words[i];
    return text;
  }
  [[noreturn]] void usage(const char* program, const std::string& wrong) const {
    std::cerr << program << ": " << wrong << "\nusage: " << program;
    for (const auto& [key, value] : defaults_)
      std::cerr << " [--" << key << " N (" << value << ")]";
    for (const auto& [key, words] : choices_)
      std::cerr << " [--" << key << " " << join(words) << " (" << words[0] << ")]";
    std::cerr << "\n";
    std::exit(2);
  }
  std::map<std::string, std::size_t> defaults_, values_;
  std::map<std::string, std::vector<std::string>> choices_;
  std::map<std::string, std::string> words_;
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
