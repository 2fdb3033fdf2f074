#include "plexus/placement_stats.hpp"

namespace plexus {

// Key function: the one type_info for dynamic_cast across plugins.
PlacementStats::~PlacementStats() = default;

}  // namespace plexus
