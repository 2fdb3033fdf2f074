// The plugin's one entry symbol. Keep the kind; rename "my_backend" (it must match NAME in
// CMakeLists.txt), the class, and set your version and a one-line description.
#include "my_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, my_backend, my_backend::MyBackend, "0.1.0",
              "skeleton backend: fill in a one-line description")
