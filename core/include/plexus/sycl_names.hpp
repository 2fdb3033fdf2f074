// The names SYCL source (SourceLanguage::sycl) gives its kernels, shared by the compilers
// that produce them and the runtime that looks them up (KernelBundle::kernel).
//
// A kernel that is `extern "C"` keeps its name. A kernel named through a registered name
// (CompileRequest::registered_names, BuildProperties::registered_names), a C++ expression
// such as "ns::scale<float>", is the symbol registered_kernel_symbol(name): a C identifier
// that every target's object format takes, one per distinct name.
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

// "__plexus_registered_" followed by `name` with letters and digits kept and every other
// byte (the underscore included) written as '_' and two hex digits: "ns::f<int>" is
// "__plexus_registered_ns_3a_3af_3cint_3e".
PLEXUS_API std::string registered_kernel_symbol(std::string_view name);

}  // namespace plexus
