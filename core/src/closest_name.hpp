// closest_name: the "did you mean" of config messages. Internal to the core.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plexus::detail {

// The candidate nearest to `name` (edits: insert, delete, replace a character or swap two
// neighbours), when it is near enough to be a likely typo: at most 1 edit for names of up
// to 4 characters, 2 up to 8, 3 beyond. Case is ignored. nullopt when none is, or when
// `name` is itself a candidate.
std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates);

// "; did you mean 'cuda'?" (quoted with `quote`), or "" when no candidate is near.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates,
                         std::string_view quote = "'");

}  // namespace plexus::detail
