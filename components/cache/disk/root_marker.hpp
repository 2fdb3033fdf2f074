// The marks by which cache/disk knows a directory tree is its own, and the recognition of
// its files by content (never by name alone).
//
// A root cache/disk creates, or adopts, holds:
//   CACHEDIR.TAG    the Cache Directory Tagging signature (bford.info/cachedir): backup and
//                   indexing tools skip the tree;
//   .plexus-cache   "plexus cache/disk layout 2": this layout, of this store.
// inspect_root() classifies a root:
//   ours          .plexus-cache says layout 2;
//   other_layout  .plexus-cache names another layout (a newer or older Plexus): not used;
//   adoptable     no .plexus-cache, and nothing but what cache/disk writes (the unmarked
//                 layout 1 of earlier versions, recognised by the entries' own headers and
//                 checksums) or nothing at all: mark_root() makes it ours;
//   foreign       anything else, e.g. a home directory: never written, evicted or cleared.
// Thread-safety: stateless functions.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace plexus::disk_cache {

namespace fs = std::filesystem;

inline constexpr int layout_version = 2;

enum class RootClaim { ours, other_layout, adoptable, foreign };
struct RootInspection {
  RootClaim claim = RootClaim::foreign;
  std::string detail;  // foreign: the first path that is not the cache's; other_layout: its line
};

RootInspection inspect_root(const fs::path& root);
// Writes .plexus-cache, then CACHEDIR.TAG (each atomically). Throws error(io).
void mark_root(const fs::path& root);

// Whether `name` is a directory name of the layout (32 lowercase hex digits).
bool is_hash_name(const std::string& name);
// Whether the regular file at `path` is one cache/disk wrote: a key record (.src), an entry
// record (.bin), or an unfinished write (.tmp-*, empty or starting like either record).
enum class FileRole { key, entry, temporary };
bool is_cache_file(const fs::path& path, FileRole role);
// Whether the store may remove what lies at a path of its layout in its own root, damaged
// or not: a regular file that starts with the magic of its role (or, for a temporary file,
// is empty), or something that holds no data (a FIFO, socket, symbolic link; a directory
// is removed only when empty). A file without the magic is not the store's: left alone.
bool removable(const fs::path& path, FileRole role);
FileRole role_of(const fs::path& path);  // by name: .tmp-*, *.src, else entry

}  // namespace plexus::disk_cache
