// write_spirv: a module -> SPIR-V bytes with SPIRV-LLVM-Translator 15, which ends the
// process on what it cannot translate (exit(15) on an unknown instruction, an assertion
// in Debian's build when a module needs a SPIR-V version above the allowed one). So the
// module is prepared first (prepare_for_spirv_translator: no `freeze`, blocks in
// dominance order), then translated in child processes (run_isolated) at the lowest
// SPIR-V version that works, up to the target's limit (translate_at_lowest_version: one
// child for a 1.0 module; above the limit, an error naming the features and versions).
// Every translator failure is an error in the log with the translator's message.
//
// Thread-safety: stateless; each call works on the module it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "diagnostic_log.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

// The SPIR-V, or nullopt with errors in `log`. `version_limit`: the highest SPIR-V version
// the target accepts (spirv_version.hpp).
std::optional<std::vector<std::byte>> write_spirv(llvm::Module& module,
                                                  std::uint32_t version_limit,
                                                  DiagnosticLog& log);

}  // namespace plexus::clang_compiler
