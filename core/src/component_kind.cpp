#include "plexus/component_kind.hpp"

namespace plexus {

std::string_view to_string(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::backend: return "backend";
    case ComponentKind::scheduler: return "scheduler";
    case ComponentKind::memory: return "memory";
    case ComponentKind::cache: return "cache";
    case ComponentKind::compiler: return "compiler";
    case ComponentKind::fusion: return "fusion";
  }
  return "unknown";
}

std::optional<ComponentKind> parse_component_kind(std::string_view text) {
  for (ComponentKind kind : all_component_kinds) {
    if (to_string(kind) == text) return kind;
  }
  return std::nullopt;
}

}  // namespace plexus
