// Helpers that turn toml++ nodes into the "file:line:col" and type names that config
// errors show. Internal to the core.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>

namespace plexus::detail {

// "file:line:col" of a node parsed from a file (or a named text); `source_name` for a node
// without a position (one an override made).
std::string node_location(std::string_view source_name, const toml::node& node);
std::string_view node_type_name(toml::node_type type);
// The node's value as a short text for messages (strings quoted).
std::string node_value_text(const toml::node& node);

}  // namespace plexus::detail
