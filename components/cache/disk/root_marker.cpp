#include "root_marker.hpp"

#include <sys/stat.h>

#include <cstring>
#include <vector>

#include "cache_codec.hpp"
#include "file_util.hpp"

namespace plexus::disk_cache {

namespace {

constexpr const char* layout_file = ".plexus-cache";
constexpr const char* tag_file = "CACHEDIR.TAG";
constexpr const char* tag_text =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by Plexus (cache/disk).\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n";

std::string layout_line() { return "plexus cache/disk layout " + std::to_string(layout_version) + "\n"; }

bool starts_with(const std::vector<std::byte>& bytes, const char* magic) {
  return bytes.size() >= 8 && std::memcmp(bytes.data(), magic, 8) == 0;
}

bool is_slot_name(const std::string& name, const char* suffix) {
  const auto dot = name.find('.');
  if (dot == 0 || dot == std::string::npos || name.substr(dot + 1) != suffix) return false;
  for (std::size_t i = 0; i < dot; ++i)
    if (name[i] < '0' || name[i] > '9') return false;
  return true;
}

bool is_regular(const fs::path& path, struct stat& st) {
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The first path below `dir` (its children are at `depth`: directories at 1..4, files at 5) that cache/disk
// did not write, or "" when there is none.
std::string first_foreign(const fs::path& dir, int depth) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    struct stat st {};
    if (depth <= 4) {
      if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !is_hash_name(name)) return path.string();
      if (std::string inner = first_foreign(path, depth + 1); !inner.empty()) return inner;
      continue;
    }
    const bool ours = name == ".lock"                     ? is_regular(path, st) && st.st_size == 0
                      : name.starts_with(".tmp-")         ? is_cache_file(path, FileRole::temporary)
                      : is_slot_name(name, "src")         ? is_cache_file(path, FileRole::key)
                      : is_slot_name(name, "bin")         ? is_cache_file(path, FileRole::entry)
                                                          : false;
    if (!ours) return path.string();
  }
  if (ec) return dir.string() + " (unreadable: " + ec.message() + ")";
  return "";
}

// cache/sqlite keeps its database, "plexus-cache.sqlite" (+ -wal, -shm, -journal), in the
// same default root: a root holding it was written by Plexus, not by the user.
bool is_sqlite_store_file(const fs::path& root, const std::string& name) {
  static constexpr const char* database = "plexus-cache.sqlite";
  struct stat st {};
  if (!is_regular(root / database, st)) return false;
  auto head = read_head(root / database, 16);
  if (!head || head->size() != 16 || std::memcmp(head->data(), "SQLite format 3", 16) != 0) return false;
  if (name == database) return true;
  return (name == std::string(database) + "-wal" || name == std::string(database) + "-shm" ||
          name == std::string(database) + "-journal") &&
         is_regular(root / name, st);
}

}  // namespace

bool is_hash_name(const std::string& name) {
  if (name.size() != 32) return false;
  for (char c : name)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool is_cache_file(const fs::path& path, FileRole role) {
  struct stat st {};
  if (!is_regular(path, st)) return false;
  auto head = read_head(path, cache_codec::entry_header_size);
  if (!head) return false;
  switch (role) {
    case FileRole::temporary:
      return head->empty() || starts_with(*head, "PLXCACHE") || starts_with(*head, "PLXCKEY1");
    case FileRole::entry:
      return std::holds_alternative<cache_codec::EntryHeader>(
          cache_codec::peek_entry(*head, static_cast<std::uint64_t>(st.st_size)));
    case FileRole::key: {
      auto whole = read_file(path);
      return whole && std::holds_alternative<CacheKey>(cache_codec::decode_key(whole->bytes));
    }
  }
  return false;
}

bool removable(const fs::path& path, FileRole role) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return false;
  if (!S_ISREG(st.st_mode)) return true;
  auto head = read_head(path, 8);
  if (!head) return false;
  switch (role) {
    case FileRole::temporary: return head->empty() || starts_with(*head, "PLXCACHE") || starts_with(*head, "PLXCKEY1");
    case FileRole::key: return starts_with(*head, "PLXCKEY1");
    case FileRole::entry: return starts_with(*head, "PLXCACHE");
  }
  return false;
}

FileRole role_of(const fs::path& path) {
  const std::string name = path.filename().string();
  if (name.starts_with(".tmp-")) return FileRole::temporary;
  return path.extension() == ".src" ? FileRole::key : FileRole::entry;
}

RootInspection inspect_root(const fs::path& root) {
  if (auto line = read_file(root / layout_file)) {
    const std::string text(reinterpret_cast<const char*>(line->bytes.data()), line->bytes.size());
    if (text == layout_line()) return {RootClaim::ours, ""};
    return {RootClaim::other_layout, text.substr(0, text.find('\n'))};
  }
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    struct stat st {};
    if (name == ".lock" && is_regular(path, st) && st.st_size == 0) continue;
    if (name.starts_with(".tmp-") && is_regular(path, st)) {  // a mark_root() that was killed
      auto head = read_head(path, 256);
      const std::string text = head ? std::string(reinterpret_cast<const char*>(head->data()), head->size()) : "";
      if (head && (layout_line().starts_with(text) || std::string(tag_text).starts_with(text))) continue;
      return {RootClaim::foreign, path.string()};
    }
    if (is_sqlite_store_file(root, name)) continue;  // cache/sqlite's database in the same root
    if (name == ".stats" && is_regular(path, st)) {
      auto head = read_head(path, 6);
      if (head && head->size() == 6 && std::memcmp(head->data(), "bytes ", 6) == 0) continue;
      return {RootClaim::foreign, path.string()};
    }
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !is_hash_name(name))
      return {RootClaim::foreign, path.string()};
    if (std::string inner = first_foreign(path, 2); !inner.empty()) return {RootClaim::foreign, inner};
  }
  if (ec) return {RootClaim::foreign, root.string() + " (unreadable: " + ec.message() + ")"};
  return {RootClaim::adoptable, ""};
}

void mark_root(const fs::path& root) {
  auto publish = [&](const char* name, const std::string& text) {
    const auto* begin = reinterpret_cast<const std::byte*>(text.data());
    rename_into(write_temp(root, std::span<const std::byte>(begin, text.size()), true), root / name);
  };
  publish(layout_file, layout_line());
  publish(tag_file, tag_text);
  fsync_dir(root);
}

}  // namespace plexus::disk_cache
