#include "cache_root.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "plexus/error.hpp"

namespace plexus::cache_codec {

namespace fs = std::filesystem;

namespace {
std::string octal(mode_t mode) {
  std::ostringstream out;
  out << '0' << std::oct << (mode & 07777);
  return out.str();
}
// A directory above `dir` that others may write without the sticky bit lets anyone rename
// `dir` away and put their own in its place: the same risk as `dir` being writable.
void check_ancestors(const fs::path& dir, const std::string& what) {
  const fs::path absolute = fs::absolute(dir).lexically_normal();
  for (fs::path at = absolute.parent_path();; at = at.parent_path()) {
    struct stat st {};
    if (::stat(at.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_IWOTH) &&
        !(st.st_mode & S_ISVTX)) {
      throw error(error_category::config,
                  what + " '" + dir.string() + "' lies in '" + at.string() +
                      "', which others may write without the sticky bit (mode " + octal(st.st_mode) +
                      "): anyone could replace the cache with their own; run `chmod o-w " +
                      at.string() + "` (or `chmod +t`) or choose another directory");
    }
    if (at == at.parent_path() || at.empty()) break;
  }
}
void check(const fs::path& dir, const std::string& what, bool must_own) {
  check_ancestors(dir, what);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    throw error(error_category::io, what + " '" + dir.string() + "' cannot be read: " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) throw error(error_category::config, what + " '" + dir.string() + "' is not a directory");
  if (must_own && st.st_uid != ::geteuid()) {
    throw error(error_category::config, what + " '" + dir.string() + "' belongs to user " +
                                            std::to_string(st.st_uid) + ", not to this user (" +
                                            std::to_string(::geteuid()) + "); use a directory of your own");
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    throw error(error_category::config,
                what + " '" + dir.string() + "' is writable by " +
                    ((st.st_mode & S_IWOTH) ? "others" : "its group") + " (mode " + octal(st.st_mode) +
                    "): anyone who can write there could plant code that this process loads; run "
                    "`chmod go-w " + dir.string() + "` or choose another directory");
  }
}
}  // namespace

fs::path default_root() {
  if (const char* dir = std::getenv("PLEXUS_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "plexus";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "plexus";
  throw error(error_category::config,
              "no cache directory: set PLEXUS_CACHE_DIR, XDG_CACHE_HOME or HOME, or the store's option");
}

void prepare_private_dir(const fs::path& dir, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    check_ancestors(dir, what);
    if (dir.has_parent_path() && !dir.parent_path().empty()) fs::create_directories(dir.parent_path(), ec);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      throw error(error_category::io, "cannot create " + what + " '" + dir.string() + "': " + std::strerror(errno));
    }
  }
  check(dir, what, true);
}

void check_shared_dir(const fs::path& dir, const std::string& what) { check(dir, what, false); }

}  // namespace plexus::cache_codec
