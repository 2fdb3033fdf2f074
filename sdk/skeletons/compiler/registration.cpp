// The plugin's one entry symbol. Keep the kind; rename "my_compiler" (it must match NAME in
// CMakeLists.txt), the class, and set your version and a one-line description.
#include "my_compiler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(compiler, my_compiler, my_compiler::MyCompiler, "0.1.0",
              "skeleton compiler: fill in a one-line description")
