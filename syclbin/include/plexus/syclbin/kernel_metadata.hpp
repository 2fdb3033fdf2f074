// Kernel argument metadata in a SYCLBIN abstract module: the set "[Plexus/kernel info]"
// (a Plexus addition; DPC++ ignores unknown sets) maps each kernel name to a byte array with
// what the runtime needs to launch it without a compiler (argument kinds and sizes, required
// work-group size, barrier and local-memory use). Encoding, little-endian: u32 version (2),
// u32 flags (1: barriers, 2: local memory, 4: bounds-checked: the last argument is the
// check record), 3 x u64 required work-group size, u32 argument
// count, then per argument u32 kind, u64 size, u32 argument flags (1: written; not in
// version 1, which is still read), u32 name length, the name's bytes.
// Pure functions; thread-safe.
#pragma once

#include <vector>

#include "plexus/kernel_info.hpp"
#include "plexus/syclbin/export.hpp"
#include "plexus/syclbin/property_set.hpp"

namespace plexus::syclbin {

inline constexpr std::string_view kernel_info_set = "Plexus/kernel info";

// Adds every kernel to `metadata`'s "[Plexus/kernel info]".
PLEXUS_SYCLBIN_API void set_kernel_info(PropertySetRegistry& metadata,
                                        const std::vector<KernelInfo>& kernels);
// The kernels of "[Plexus/kernel info]" in the order of `names` (the module's kernel names).
// Empty when the set is absent or does not describe every name (the compiler then inspects
// IR images). A value that does not decode throws plexus::error(invalid_argument) naming the
// kernel and what is wrong.
PLEXUS_SYCLBIN_API std::vector<KernelInfo> kernel_info(const PropertySetRegistry& metadata,
                                                       const std::vector<std::string>& names);

}  // namespace plexus::syclbin
