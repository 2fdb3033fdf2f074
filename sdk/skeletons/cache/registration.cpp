// The plugin's one entry symbol. Keep the kind; rename "my_cache" (it must match NAME in
// CMakeLists.txt), the class, and set your version and a one-line description.
#include "my_cache.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(cache, my_cache, my_cache::MyCacheStore, "0.1.0",
              "skeleton cache: fill in a one-line description")
