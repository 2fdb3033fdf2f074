#include "plexus/syclbin/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "plexus/error.hpp"

namespace plexus::syclbin {

MappedFile::MappedFile(const std::filesystem::path& path) {
  const auto failure = [&](const char* what) {
    return error(error_category::io,
                 "cannot " + std::string(what) + " '" + path.string() + "': " + std::strerror(errno));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw failure("open");
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const auto e = failure("stat");
    ::close(fd);
    throw e;
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    throw error(error_category::io, "'" + path.string() + "' is not a regular file");
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ > 0) {
    void* address = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) {
      const auto e = failure("map");
      ::close(fd);
      throw e;
    }
    data_ = static_cast<const std::byte*>(address);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace plexus::syclbin
