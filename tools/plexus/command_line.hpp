// CommandLine: the `plexus` tool's small argument parser. Options are `--name value`,
// `--name=value` or flags (`-h` is `--help`); everything else is positional; what follows
// `--` is kept apart. usage_error: a mistake in the command line (exit status 2).
// Not thread-safe (used from main only).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "plexus/error.hpp"

namespace plexus::tool {

// A mistake in how the tool was called: an unknown option, a missing or malformed value, the
// wrong number of arguments. main prints it and exits 2; every other error exits 1.
class usage_error : public error {
 public:
  explicit usage_error(const std::string& message)
      : error(error_category::invalid_argument, message) {}
};

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
  // The whole number given to --name (fallback when absent); usage_error unless it is a
  // whole number from `minimum` to `maximum`, one message for every bad value.
  std::size_t count(const std::string& name, std::size_t fallback, std::size_t minimum,
                    std::size_t maximum = 1000000) const;
  // Everything after `--`, untouched (e.g. build options for a compiler).
  const std::vector<std::string>& passthrough() const { return passthrough_; }

 private:
  std::set<std::string> flags_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
  std::vector<std::string> passthrough_;
};

}  // namespace plexus::tool
