// CommandLine: the `plexus` tool's small argument parser. Options are `--name value`,
// `--name=value` or flags; everything else is positional; what follows `--` is kept apart.
// Not thread-safe (used from main only).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace plexus::tool {

class CommandLine {
 public:
  // value_options: options that take a value (may repeat); flags: options that do not.
  // Throws plexus::error(invalid_argument) for an unknown option or a missing value.
  CommandLine(const std::vector<std::string>& args, const std::set<std::string>& value_options,
              const std::set<std::string>& flags);

  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Everything after `--`, untouched (e.g. build options for a compiler).
  const std::vector<std::string>& passthrough() const { return passthrough_; }

 private:
  std::set<std::string> flags_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
  std::vector<std::string> passthrough_;
};

}  // namespace plexus::tool
