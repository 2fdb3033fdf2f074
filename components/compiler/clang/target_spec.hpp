// TargetSpec: how one BinaryFormat is produced: the LLVM triple the frontend compiles for,
// CPU and features, pointer mode, and the libclc library linked after the frontend.
//
// Plain data; target_spec_for() is a pure function (thread-safe).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "plexus/binary_format.hpp"

namespace plexus::clang_compiler {

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
  std::string libclc_file;  // file inside the libclc directory; empty: none
};

// Throws plexus::error(unsupported) for formats this compiler cannot produce.
TargetSpec target_spec_for(BinaryFormat format, std::string_view architecture);

// Whether a module of `triple` (from a bitcode, IR or SPIR-V input) can become `spec`.
bool triple_matches(const TargetSpec& spec, std::string_view triple);

}  // namespace plexus::clang_compiler
