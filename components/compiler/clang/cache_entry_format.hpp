// CacheEntryFormat: the bytes compiler/clang keeps in the cache store, and reading them back.
//
// A value is a 40-byte header and a payload:
//   magic "PXCLANG\0" (8) | format version (u32) | kind (u32: 1 frontend, 2 binary, 3 pch) |
//   payload size (u64) | checksum: the first 16 bytes of BLAKE3(payload)
// all little-endian. The payload starts with the entry's key (its BLAKE3 hash in hex), so a
// value found under another key is refused too. decode_*() check every length against the
// bytes left and return nullopt (with the reason) for anything truncated, corrupted, of
// another version or of another kind: a bad value is a miss, never a crash or bad data.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/diagnostic.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus::clang_compiler {

// Bumped whenever the layout below or what a cached result means changes.
// 2: argument flags; 3: the kernel flag cancellable (8)
inline constexpr std::uint32_t cache_entry_format_version = 3;

// Level 1: the frontend's LLVM bitcode (before device libraries and target optimisation)
// and the frontend's diagnostics (warnings), replayed on a hit.
struct FrontendEntry {
  std::string key;
  std::vector<Diagnostic> diagnostics;
  std::string log;
  std::vector<std::byte> bitcode;
};

// Level 2: the finished binary of one (frontend result, target, architecture, kernel_name).
struct BinaryEntry {
  std::string key;
  BinaryFormat format = BinaryFormat::spirv;
  std::vector<Diagnostic> diagnostics;
  std::string log;
  std::vector<KernelInfo> kernels;
  std::vector<std::byte> binary;
};

// A precompiled <sycl/sycl.hpp> (PrecompiledHeader): the files it read from disk with their
// identity then ("size mtime"), and Clang's PCH bytes.
struct PchEntry {
  std::string key;
  std::vector<std::pair<std::string, std::string>> disk_files;
  std::string bytes;
};

std::vector<std::byte> encode(const FrontendEntry& entry);
std::vector<std::byte> encode(const BinaryEntry& entry);
std::vector<std::byte> encode(const PchEntry& entry);

// nullopt, with `why`, when the value is not a valid entry of this kind for `key`.
std::optional<FrontendEntry> decode_frontend_entry(std::span<const std::byte> value,
                                                   const std::string& key, std::string& why);
std::optional<BinaryEntry> decode_binary_entry(std::span<const std::byte> value,
                                               const std::string& key, std::string& why);
std::optional<PchEntry> decode_pch_entry(std::span<const std::byte> value, const std::string& key,
                                         std::string& why);

}  // namespace plexus::clang_compiler
