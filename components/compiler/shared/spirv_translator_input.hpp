// prepare_for_spirv_translator: what both compiler components do to a module right before
// SPIRV-LLVM-Translator 15 translates it, so that it takes what LLVM 15's optimiser makes:
// blocks in dominance order (order_blocks_for_spirv) and no `freeze` instructions (the
// translator has no SPIR-V for them and exits the process with status 15; a frozen value
// becomes its operand, which is what later translators do) or llvm.vector.reduce.*
// intrinsics (the SLP vectoriser's; the translator exits with status 8: they become
// shuffles and scalar operations, LLVM's ExpandReductions), and each function's allocas
// first in its entry block (SPIR-V's rule for OpVariable; instcombine leaves casts between
// them).
//
// Thread-safety: stateless; changes only the module it is given.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

// True when the module was changed.
bool prepare_for_spirv_translator(llvm::Module& module);

}  // namespace plexus::compiler_shared
