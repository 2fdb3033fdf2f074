// demangle: a C++ type's readable name from its mangled one (typeid(T).name()), for error
// messages; the mangled name when it cannot be demangled. Internal to the core.
// Thread-safety: safe from any thread.
#pragma once

#include <string>

namespace plexus::detail {

std::string demangle(const char* mangled);

}  // namespace plexus::detail
