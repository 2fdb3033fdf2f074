#include "file_util.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "plexus/error.hpp"

namespace plexus::disk_cache {

namespace {
[[noreturn]] void fail(const std::string& what, const fs::path& path) {
  throw error(error_category::io, what + " '" + path.string() + "': " + std::strerror(errno));
}
int open_lock_file(const fs::path& path) {
  int fd;
  do fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
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

std::optional<FileContent> read_file(const fs::path& path) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
    fail("cannot open", path);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail("cannot stat", path);
  }
  FileContent content;
  content.device = st.st_dev;
  content.inode = st.st_ino;
  content.mtime = mtime_of(st);
  content.bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < content.bytes.size()) {
    const ssize_t n = ::read(fd, content.bytes.data() + done, content.bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      fail("cannot read", path);
    }
    if (n == 0) break;  // shorter than fstat said: the decoder reports it
    done += static_cast<std::size_t>(n);
  }
  content.bytes.resize(done);
  ::close(fd);
  return content;
}

bool same_file(const fs::path& path, const FileContent& content) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && st.st_dev == content.device && st.st_ino == content.inode;
}

void touch(const fs::path& path) {
  // UTIME_OMIT for atime: only the modification time is the last-use record.
  const struct timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
  ::utimensat(AT_FDCWD, path.c_str(), times, 0);  // best effort: a vanished entry is fine
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
