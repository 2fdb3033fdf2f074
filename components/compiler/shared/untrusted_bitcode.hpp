// parse_untrusted_bitcode: LLVM bitcode from outside the process (a compile input, a
// SYCLBIN file's IR) into a module, without letting LLVM 15's bitcode
// reader end the process: it segfaults or asserts on some malformed files. The bytes are
// parsed and verified in a child process first (plexus::run_isolated); only bitcode that
// parsed and verified there is parsed here (the reader is deterministic).
//
// Cost: a fork and a second parse (docs/benchmarks.md, "compiler isolation").
// Thread-safety: stateless; each call parses into the context it is given.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

// The module, or nullptr with `problem` saying why: "not valid LLVM bitcode: ...", "not
// valid LLVM IR: ..." or how the reader ended the child ("it was ended by signal 11 ...").
std::unique_ptr<llvm::Module> parse_untrusted_bitcode(std::string_view bytes,
                                                      llvm::LLVMContext& context,
                                                      std::string& problem);

}  // namespace plexus::compiler_shared
