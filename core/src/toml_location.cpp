#include "toml_location.hpp"

#include <sstream>

namespace plexus::detail {

std::string node_location(std::string_view source_name, const toml::node& node) {
  const auto& source = node.source();
  const auto& begin = source.begin;
  if (begin.line == 0 || !source.path || source.path->empty()) return std::string(source_name);
  std::string text(*source.path);
  return text + ":" + std::to_string(begin.line) + ":" + std::to_string(begin.column);
}

std::string_view node_type_name(toml::node_type type) {
  switch (type) {
    case toml::node_type::none: return "nothing";
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
  }
  return "unknown";
}

std::string node_value_text(const toml::node& node) {
  if (auto text = node.value_exact<std::string>()) return "\"" + *text + "\"";
  std::ostringstream out;
  node.visit([&out](const auto& value) { out << value; });
  std::string text = out.str();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

}  // namespace plexus::detail
