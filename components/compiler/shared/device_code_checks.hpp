// Checks and fix-ups of a device module that both compiler components apply the same way.
//
// Thread-safety: stateless; each function reads or changes only the module it is given.
#pragma once

#include <string>

#include "plexus/binary_format.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

// Functions the module calls that nothing defines, demangled and comma-separated (empty
// when none): a PTX, AMDGCN or host (llvm_bitcode) module with these does not load. For
// PTX, vprintf, malloc, free and __assertfail are provided by the CUDA driver and not
// counted; for llvm_bitcode, the host backend's `__plexus_*` symbols and what this process
// resolves (the C library: libm, printf), as the host backend's JIT resolves them.
std::string unresolved_functions(const llvm::Module& module, BinaryFormat format);

// The build error for host (llvm_bitcode) code that calls the functions `missing` (from
// unresolved_functions) after the host device library was linked in.
std::string host_unresolved_message(const std::string& missing);

// Puts every function's basic blocks in reverse post-order, so that each block comes after
// the blocks that dominate it. SPIR-V requires that order, and SPIRV-LLVM-Translator 15
// keeps LLVM's, which the optimiser leaves otherwise for some loops (spirv-val: "ID ... has
// not been defined"). True when the module was changed.
bool order_blocks_for_spirv(llvm::Module& module);

}  // namespace plexus::compiler_shared
