// Where the persistent stores keep their files, and the permission rules for it.
// default_root(): PLEXUS_CACHE_DIR, else $XDG_CACHE_HOME/plexus, else $HOME/.cache/plexus.
// prepare_private_dir(): creates the directory (and missing parents) with mode 0700 and
// refuses (error(config) naming the path, its mode and the fix) a directory that is not a
// directory, belongs to another user, or is writable by group or others, or one below a
// directory that others may write without the sticky bit (anyone could replace it).
// check_shared_dir(): the same checks for a read-only layer, which may belong to another
// user but must not be writable by anyone else than its owner. Thread-safety: stateless.
#pragma once

#include <filesystem>
#include <string>

namespace plexus::cache_codec {

std::filesystem::path default_root();
void prepare_private_dir(const std::filesystem::path& dir, const std::string& what);
void check_shared_dir(const std::filesystem::path& dir, const std::string& what);

}  // namespace plexus::cache_codec
