// MappedFile: a whole file mapped read-only (mmap). Immutable after construction, so its
// bytes may be read from any thread; not copyable.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>

#include "plexus/syclbin/export.hpp"

namespace plexus::syclbin {

class PLEXUS_SYCLBIN_API MappedFile {
 public:
  // Throws plexus::error(io) naming the file and the reason.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_, size_}; }

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace plexus::syclbin
