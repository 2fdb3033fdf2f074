// BinaryFormat: the forms of device code that compilers produce and backends load.
// Pure functions, thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

enum class BinaryFormat {
  llvm_bitcode,     // LLVM bitcode for the host CPU (JIT-compiled in process)
  spirv,            // SPIR-V (cl_khr_il_program, Level Zero)
  spir_bitcode,     // LLVM bitcode as SPIR, spir64 triple (cl_khr_spir: PoCL)
  ptx,              // NVIDIA PTX text
  amdgcn,           // AMDGCN code object
  opencl_c_source,  // OpenCL C source text, built by the driver
  native,           // a device-specific binary the driver produced earlier
};

PLEXUS_API std::string_view to_string(BinaryFormat format);
PLEXUS_API std::optional<BinaryFormat> parse_binary_format(std::string_view text);

}  // namespace plexus
