// The plugin's one entry symbol. Keep the kind; rename "my_memory" (it must match NAME in
// CMakeLists.txt), the class, and set your version and a one-line description.
#include "my_memory.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(memory, my_memory, my_memory::MyMemoryModel, "0.1.0",
              "skeleton memory: fill in a one-line description")
