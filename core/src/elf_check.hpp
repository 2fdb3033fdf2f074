// A bounds check of an ELF file's headers before Boost.DLL reads its sections, so that a
// truncated or corrupt plugin file is reported instead of read out of bounds.
// Internal to the core. Thread-safe (reads the file only).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace plexus::detail {

// nullopt when the file is a well-formed 64-bit little-endian ELF shared object as far as
// its header and section table go; otherwise what is wrong with it.
std::optional<std::string> elf_problem(const std::filesystem::path& file);

}  // namespace plexus::detail
