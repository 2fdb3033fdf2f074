// The precompiled collectives (sycl_include/sycl/plexus/group_library.hpp): what the SYCL
// frontend links into a module after its O2, on every target. The build makes the library
// for the default command lines (PrebuiltCollectives), Frontend the others (bitcode, once per
// command line, kept like the PCH); this file has its source, says where it applies, and
// links it.
//
// Thread-safety: stateless functions; link_collectives changes only `module`.
#pragma once

#include <string>
#include <string_view>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"

namespace llvm {
class Module;
}

namespace plexus::clang_compiler {

// The macro that makes the headers call the library (a frontend -D).
inline constexpr const char* collectives_macro = "__PLEXUS_SYCL_COLLECTIVES_LIBRARY";

// The library's source: the headers' PLEXUS_SYCL_LIBRARY_DEFINE for every instance.
std::string_view collectives_source();

// Whether a compile of `request` links the library: SYCL source, on every target (SPIR-V,
// SPIR bitcode, PTX, AMDGCN, the host).
bool links_collectives(const CompileRequest& request);

// Whether `module` calls (declares) a library function.
bool calls_collectives(const llvm::Module& module);

// Links the library's functions that `module` calls (LinkOnlyNeeded) and makes them
// internal; the library's named metadata (OpenCL version, ident) is not copied. `bitcode`
// must outlive the call. False, with an error in `log`, when it does not parse or link.
bool link_collectives(llvm::Module& module, std::string_view bitcode, DiagnosticLog& log);

}  // namespace plexus::clang_compiler
