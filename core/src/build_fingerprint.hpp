// Compatibility of two build fingerprints (plexus/build_fingerprint.hpp). Internal.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace plexus::detail {

// nullopt when a plugin with fingerprint `plugin` can share C++ objects with a core built
// with `core`; otherwise which field differs, naming both values.
std::optional<std::string> fingerprint_mismatch(std::string_view core, std::string_view plugin);

}  // namespace plexus::detail
