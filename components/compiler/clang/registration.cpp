#include "clang_compiler.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(compiler, clang, plexus::clang_compiler::ClangCompiler, "0.1.0",
              "in-process Clang/LLVM 15: OpenCL C, C++ for OpenCL, LLVM IR, SPIR-V -> "
              "SPIR-V, SPIR bitcode, PTX, host bitcode, AMDGCN")
