// Checked kernels (bounds checks): the record a checked kernel reads its arguments' bounds
// from and writes its first violation to. Shared by the compiler components (which
// instrument each access against it: compiler_shared/bounds_checks) and the core (which
// fills it per launch and reads it back: core/src/api/kernel_check_buffer).
//
// A checked kernel (KernelInfo::bounds_checked) has one parameter more than its source: the
// last, a __global pointer to this record, which the runtime passes (it is not an
// argument the application gives). Layout, native byte order, offsets in bytes:
//   header (64 bytes): u32 violated (0, or 1 once a work-item failed a check), u32 argument
//   (the parameter's index; no_argument for a __local variable of the kernel), i64 byte
//   offset from the parameter (or the variable), u64 bytes accessed, u32 kind (outside,
//   read_only_store), u32 unused, u64 global id x, y, z, u64 the variable's size (bytes).
//   then per parameter, in order (scalars too), argument_words u64:
//   lo, hi: the bytes [lo, hi) from the pointer the kernel may touch at all;
//   flags: writable, box (the range is a box of a 2D/3D buffer: also check each element);
//   element size; buffer extent x 3 (elements); box offset x 3; box extent x 3; next: the
//   index of a further entry for the same argument (0: none). After the parameters' entries
//   come such further entries: the other ranges of the argument's buffer that the command
//   group declared (a kernel may reach, through one accessor's pointer, a part of the
//   buffer another accessor of the same command group declared).
// Plain constants; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plexus::kernel_checks {

inline constexpr const char* parameter_name = "__plexus_checks";
inline constexpr std::size_t header_bytes = 64;
inline constexpr std::size_t argument_words = 16;
inline constexpr std::size_t argument_bytes = argument_words * 8;

// Header fields (byte offsets).
inline constexpr std::size_t violated_at = 0, argument_at = 4, offset_at = 8, size_at = 16,
                             kind_at = 24, global_id_at = 32, variable_bytes_at = 56;
inline constexpr std::uint32_t no_argument = 0xffffffffu;
enum Kind : std::uint32_t { outside = 1, read_only_store = 2 };

// Per-argument words.
enum Word : std::size_t {
  lo = 0, hi = 1, flags = 2, element_size = 3, extent = 4, box_offset = 7, box_extent = 10,
  next = 13
};
inline constexpr std::uint64_t writable = 1, box = 2;

inline constexpr std::size_t record_bytes(std::size_t arguments) {
  return header_bytes + arguments * argument_bytes;
}

}  // namespace plexus::kernel_checks
