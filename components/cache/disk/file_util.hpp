// Small POSIX helpers of cache/disk: advisory locks that die with their process (flock(2)
// on a file of their own, one open file description per lock, so threads of one process
// exclude each other too), whole-file reads that keep the file's identity, and atomic
// publication (temporary file in the same directory, fsync, rename, fsync of the
// directory). Errors are plexus::error(io) naming the path.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace plexus::disk_cache {

namespace fs = std::filesystem;

class FileLock {
 public:
  enum class Mode { shared, exclusive };
  // Opens (creating, mode 0600) `path` and blocks until the lock is held.
  FileLock(const fs::path& path, Mode mode);
  // The lock if it can be had at once; nullopt when another holder has it.
  static std::optional<FileLock> try_lock(const fs::path& path, Mode mode);
  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock();
  int fd() const { return fd_; }

 private:
  FileLock() = default;
  int fd_ = -1;
};

struct FileContent {
  std::vector<std::byte> bytes;
  dev_t device = 0;
  ino_t inode = 0;
  std::chrono::system_clock::time_point mtime;
};
// The whole file, or nullopt when it does not exist (or vanished), or when it is not a
// regular file: then `*not_regular` (when given) says what it is ("a FIFO", "a directory",
// "a symbolic link", ...). The file is opened without following a symbolic link and
// without blocking (a FIFO never hangs the reader). Other errors throw.
std::optional<FileContent> read_file(const fs::path& path, std::string* not_regular = nullptr);
// Up to `size` first bytes of a regular file (opened like read_file); nullopt otherwise.
std::optional<std::vector<std::byte>> read_head(const fs::path& path, std::size_t size);
// What lstat says `path` is, for messages: "a regular file", "a FIFO", "missing", ...
std::string file_kind(const fs::path& path);
// Whether `path` is still the file read (same device and inode).
bool same_file(const fs::path& path, const FileContent& content);
// Sets the file's modification time to now (the store's last-use record; atime is unused).
void touch(const fs::path& path);

// Writes `bytes` to a new temporary file ".tmp-XXXXXX" in `dir` (fdatasync'ed when `sync`)
// and returns its path; rename_into() then moves it into place atomically (replacing any
// file there). On an error the temporary file is removed.
fs::path write_temp(const fs::path& dir, std::span<const std::byte> bytes, bool sync);
void rename_into(const fs::path& temp, const fs::path& target);
void fsync_dir(const fs::path& dir);

std::chrono::system_clock::time_point mtime_of(const struct stat& st);

}  // namespace plexus::disk_cache
