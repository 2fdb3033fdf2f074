#include "file_util.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "plexus/error.hpp"

namespace plexus::disk_cache {

namespace {
[[noreturn]] void fail(const std::string& what, const fs::path& path) {
  throw error(error_category::io, what + " '" + path.string() + "': " + std::strerror(errno));
}
int open_lock_file(const fs::path& path) {
  int fd;
  do fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) fail("cannot open lock file", path);
  return fd;
}
void write_all(int fd, std::span<const std::byte> bytes, const fs::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot write", path);
    done += static_cast<std::size_t>(n);
  }
}
}  // namespace

FileLock::FileLock(const fs::path& path, Mode mode) : fd_(open_lock_file(path)) {
  const int op = mode == Mode::shared ? LOCK_SH : LOCK_EX;
  while (::flock(fd_, op) != 0) {
    if (errno == EINTR) continue;
    const int saved = errno;
    ::close(fd_);
    errno = saved;
    fail("cannot lock", path);
  }
}

std::optional<FileLock> FileLock::try_lock(const fs::path& path, Mode mode) {
  FileLock lock;
  lock.fd_ = open_lock_file(path);
  const int op = (mode == Mode::shared ? LOCK_SH : LOCK_EX) | LOCK_NB;
  while (::flock(lock.fd_, op) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) return std::nullopt;
    fail("cannot lock", path);
  }
  return lock;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

std::chrono::system_clock::time_point mtime_of(const struct stat& st) {
  return std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec)));
}

namespace {
const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// A descriptor of the regular file at `path` (no symbolic link followed, no blocking open),
// -1 when it does not exist or is something else (`*not_regular` says what).
int open_regular(const fs::path& path, struct stat& st, std::string* not_regular) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return -1;
    if (errno == ELOOP) {  // O_NOFOLLOW met a symbolic link
      if (not_regular) *not_regular = "a symbolic link";
      return -1;
    }
    fail("cannot open", path);
  }
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail("cannot stat", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    if (not_regular) *not_regular = kind_of(st.st_mode);
    return -1;
  }
  return fd;
}

std::size_t read_up_to(int fd, std::byte* data, std::size_t size, const fs::path& path) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      fail("cannot read", path);
    }
    if (n == 0) break;  // shorter than fstat said: the decoder reports it
    done += static_cast<std::size_t>(n);
  }
  return done;
}
}  // namespace

std::string file_kind(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "missing";
  return kind_of(st.st_mode);
}

std::optional<FileContent> read_file(const fs::path& path, std::string* not_regular) {
  struct stat st {};
  const int fd = open_regular(path, st, not_regular);
  if (fd < 0) return std::nullopt;
  FileContent content;
  content.device = st.st_dev;
  content.inode = st.st_ino;
  content.mtime = mtime_of(st);
  content.bytes.resize(static_cast<std::size_t>(st.st_size));
  content.bytes.resize(read_up_to(fd, content.bytes.data(), content.bytes.size(), path));
  ::close(fd);
  return content;
}

std::optional<std::vector<std::byte>> read_head(const fs::path& path, std::size_t size) {
  struct stat st {};
  const int fd = open_regular(path, st, nullptr);
  if (fd < 0) return std::nullopt;
  std::vector<std::byte> head(size);
  head.resize(read_up_to(fd, head.data(), head.size(), path));
  ::close(fd);
  return head;
}

bool same_file(const fs::path& path, const FileContent& content) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && st.st_dev == content.device && st.st_ino == content.inode;
}

void touch(const fs::path& path) {
  // UTIME_OMIT for atime: only the modification time is the last-use record.
  const struct timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
  ::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW);  // best effort: a vanished entry is fine
}

void fsync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("cannot open directory", dir);
  ::fsync(fd);
  ::close(fd);
}

fs::path write_temp(const fs::path& dir, std::span<const std::byte> bytes, bool sync) {
  std::string temp = (dir / ".tmp-XXXXXX").string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) fail("cannot create a temporary file in", dir);
  try {
    write_all(fd, bytes, temp);
    if (sync && ::fdatasync(fd) != 0) fail("cannot fsync", temp);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  ::close(fd);
  return temp;
}

void rename_into(const fs::path& temp, const fs::path& target) {
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    errno = saved;
    fail("cannot rename into place", target);
  }
}

}  // namespace plexus::disk_cache
