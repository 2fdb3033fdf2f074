#include "command_line.hpp"

#include "plexus/error.hpp"

namespace plexus::tool {

CommandLine::CommandLine(const std::vector<std::string>& args,
                         const std::set<std::string>& value_options,
                         const std::set<std::string>& flags) {
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done) {
      passthrough_.push_back(arg);
      continue;
    }
    if (arg == "-h" && flags.count("help")) {
      flags_.insert("help");
      continue;
    }
    if (!arg.starts_with("--")) {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (flags.count(name)) {
      if (inline_value) {
        throw usage_error("option --" + name + " takes no value");
      }
      flags_.insert(name);
    } else if (value_options.count(name)) {
      if (!inline_value && i + 1 >= args.size()) {
        throw usage_error("option --" + name + " needs a value");
      }
      values_[name].push_back(inline_value ? *inline_value : args[++i]);
    } else {
      throw usage_error("unknown option --" + name + " (see --help)");
    }
  }
}

std::optional<std::string> CommandLine::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::size_t CommandLine::count(const std::string& name, std::size_t fallback,
                               std::size_t minimum, std::size_t maximum) const {
  const auto text = value(name);
  if (!text) return fallback;
  std::size_t parsed = 0;
  const bool digits = !text->empty() && text->size() <= 12 &&
                      text->find_first_not_of("0123456789") == std::string::npos;
  if (digits) parsed = std::stoull(*text);
  if (!digits || parsed < minimum || parsed > maximum) {
    throw usage_error("--" + name + " '" + *text + "': expected a whole number from " +
                      std::to_string(minimum) + " to " + std::to_string(maximum));
  }
  return parsed;
}

std::vector<std::string> CommandLine::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace plexus::tool
