// link_code_object: an AMDGCN relocatable object (what the AMDGPU code generator emits) linked
// into a loadable HSA code object, in process with lld's ELF linker (liblldELF, as
// `ld.lld -shared`): the shared ELF object that hipModuleLoadData and the HSA runtime load,
// with each kernel's descriptor (<kernel>.kd) in its dynamic symbols and the amdhsa
// metadata note (NT_AMDGPU_METADATA: a kernel entry per kernel with its argument layout)
// kept from the object.
//
// lld reads and writes files, so the object and the code object pass through a private
// temporary directory, removed afterwards. lld 15's linker is one global state: links are
// serialised by a process-wide lock, and the state is reset after each
// (lld::CommonLinkerContext::destroy), so a failed link does not affect the next.
// Thread-safety: any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "diagnostic_log.hpp"

namespace plexus::clang_compiler {

// Whether this build has lld's libraries (PLEXUS_HAVE_LLD); without them the amdgcn target
// is unavailable and link_code_object only logs that.
bool code_object_linker_available();

// The code object, or nullopt with lld's messages in `log`.
std::optional<std::vector<std::byte>> link_code_object(std::span<const std::byte> object,
                                                       compiler_shared::DiagnosticLog& log);

}  // namespace plexus::clang_compiler
