// The LLVM address spaces of OpenCL's __global and __local memory, the same on every target
// the compilers emit (spir, nvptx, amdgcn and the host's map): one definition for the
// passes of compiler_shared.
// Thread-safety: constants.
#pragma once

namespace plexus::compiler_shared {

inline constexpr unsigned global_address_space = 1;
inline constexpr unsigned local_address_space = 3;

}  // namespace plexus::compiler_shared
