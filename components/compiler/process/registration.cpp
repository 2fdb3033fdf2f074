#include "plexus/plugin.hpp"
#include "process_compiler.hpp"

PLEXUS_PLUGIN(compiler, process, plexus::process_compiler::ProcessCompiler, "0.1.0",
              "LLVM 15 tools as child processes (clang-15, llvm-link-15, opt-15, llc-15, ld.lld, "
              "llvm-spirv-15): the baseline for compiler/clang")
