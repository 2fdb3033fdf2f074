// The closed set of component kinds the core knows how to wire. Implementations of each
// kind are open: any number of plugins. Pure functions, thread-safe.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

// Enumerator names are the kind names used in configs, file names and entry symbols.
enum class ComponentKind { backend, scheduler, memory, cache, compiler, fusion };

inline constexpr std::array<ComponentKind, 6> all_component_kinds = {
    ComponentKind::backend, ComponentKind::scheduler, ComponentKind::memory,
    ComponentKind::cache,   ComponentKind::compiler,  ComponentKind::fusion};

PLEXUS_API std::string_view to_string(ComponentKind kind);
PLEXUS_API std::optional<ComponentKind> parse_component_kind(std::string_view text);

}  // namespace plexus
