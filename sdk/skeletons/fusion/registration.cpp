// The plugin's one entry symbol. Keep the kind; rename "my_fusion" (it must match NAME in
// CMakeLists.txt), the class, and set your version and a one-line description.
#include "my_fusion.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(fusion, my_fusion, my_fusion::MyFusionEngine, "0.1.0",
              "skeleton fusion: fill in a one-line description")
