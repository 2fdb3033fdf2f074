// TargetSpec: how one BinaryFormat is produced: the LLVM triple the frontend compiles for,
// CPU and features, pointer mode, and the libclc library linked after the frontend.
//
// Shared by compiler/clang (in process) and compiler/process (child processes), so both
// compile with the same triple, CPU, features and device library.
//
// Plain data; target_spec_for() is a pure function (thread-safe).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/binary_format.hpp"

namespace plexus::compiler_shared {

struct TargetSpec {
  BinaryFormat format = BinaryFormat::spirv;
  std::string triple;
  std::string cpu;                    // -target-cpu; empty: the target's default
  std::vector<std::string> features;  // "+ptx70", ...
  // SPIR 1.2 bitcode and the SPIRV-LLVM-Translator 15 expect typed pointers.
  bool typed_pointers = false;
  // Host: distinct address spaces for global/constant/local (as PoCL does), so kernel
  // properties and the host device library can tell them apart.
  bool fake_address_space_map = false;
  // OpenCL C extensions the target's device library adds to those Clang gives the triple,
  // defined as macros (-Dname=1: Clang 15 knows cl_khr_subgroup_shuffle and its relatives
  // only as macros, which its builtin declarations test, as opencl-c-base.h does for SPIR).
  std::vector<std::string> opencl_extensions;
  std::string libclc_file;  // file inside the libclc directory; empty: none
  // spirv: the highest SPIR-V version the device accepts (spirv_version.hpp), from the
  // architecture ("spirv1.2"; none: 1.4, the translator's highest).
  std::uint32_t spirv_version_limit = 0;
};

// Throws plexus::error(unsupported) for formats these compilers cannot produce (the message
// names `compiler`), plexus::error(invalid_argument) for a spirv architecture that names no
// SPIR-V version.
TargetSpec target_spec_for(BinaryFormat format, std::string_view architecture,
                           std::string_view compiler = "clang");

// Whether a module of `triple` (from a bitcode, IR or SPIR-V input) can become `spec`.
bool triple_matches(const TargetSpec& spec, std::string_view triple);

}  // namespace plexus::compiler_shared

// The clang component names these unqualified inside its own namespace.
namespace plexus::clang_compiler {
using compiler_shared::TargetSpec;
using compiler_shared::target_spec_for;
using compiler_shared::triple_matches;
}  // namespace plexus::clang_compiler
