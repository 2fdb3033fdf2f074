#include "disk_cache_store.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "cache_root.hpp"
#include "root_marker.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::disk_cache {

namespace {

using Clock = std::chrono::system_clock;

// "<n>.src" / "<n>.bin" -> n and the suffix.
std::optional<std::pair<unsigned, std::string>> parse_slot(const std::string& name) {
  const auto dot = name.find('.');
  if (dot == 0 || dot == std::string::npos) return std::nullopt;
  const std::string suffix = name.substr(dot + 1);
  if (suffix != "src" && suffix != "bin") return std::nullopt;
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + dot, n);
  if (ec != std::errc() || end != name.data() + dot) return std::nullopt;
  return std::pair{n, suffix};
}

fs::path slot_path(const fs::path& leaf, unsigned n, const char* suffix) {
  return leaf / (std::to_string(n) + "." + suffix);
}

// <n> of every slot name in `leaf` whose .src exists (any kind of file); `next`: one past the
// highest <n> of any slot file.
std::vector<unsigned> src_numbers(const fs::path& leaf, unsigned* next = nullptr) {
  std::vector<unsigned> numbers;
  std::error_code ec;
  if (next) *next = 0;
  for (fs::directory_iterator it(leaf, ec), end; !ec && it != end; it.increment(ec)) {
    auto slot = parse_slot(it->path().filename().string());
    if (!slot) continue;
    if (next) *next = std::max(*next, slot->first + 1);
    if (slot->second == "src") numbers.push_back(slot->first);
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

std::uint64_t file_size_or_zero(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

void make_private_dirs(const fs::path& root, const fs::path& leaf) {
  fs::path at = root;
  for (const auto& part : fs::relative(leaf, root)) {
    at /= part;
    if (::mkdir(at.c_str(), 0700) != 0 && errno != EEXIST) {
      throw error(error_category::io, "cannot create cache directory '" + at.string() + "': " + std::strerror(errno));
    }
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      throw error(error_category::io, "'" + at.string() + "' is " + file_kind(at) + " in place of a cache directory");
    }
  }
}

// Removes what lies at an entry's path in the store's own root: a file (or link, FIFO) is
// unlinked, a directory removed only when empty (its contents are not the store's).
void remove_slot(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) ::rmdir(path.c_str());
  else ::unlink(path.c_str());
}

// Removes what lies at a path of the layout in the store's own root if it is the store's
// (removable(): by content, never by name alone). Returns whether it is gone.
bool remove_if_ours(const fs::path& path) {
  if (!removable(path, role_of(path))) return false;
  remove_slot(path);
  return file_kind(path) == "missing";
}

// The hash-named real directories below `dir` (never through a symbolic link).
std::vector<fs::path> hash_dirs(const fs::path& dir) {
  std::vector<fs::path> dirs;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    struct stat st {};
    if (is_hash_name(it->path().filename().string()) && ::lstat(it->path().c_str(), &st) == 0 &&
        S_ISDIR(st.st_mode))
      dirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::string iso_time(Clock::time_point time) {
  const std::time_t t = Clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

// [cache.disk]: the shared store options and its own (disk_cache_store.hpp).
struct DiskCacheStore::Settings {
  cache_codec::StoreOptions store;
  bool sync = true;
  std::chrono::minutes cleanup_interval{60};
  std::string root;
  std::vector<std::string> read_only_layers;
};

DiskCacheStore::Settings DiskCacheStore::read_settings(const ComponentOptions& options) {
  Settings settings;
  settings.store = cache_codec::read_store_options(options);
  settings.sync = options.get<bool>("sync", true);
  settings.cleanup_interval = std::chrono::minutes(
      options.get_in_range("cleanup_interval_minutes", 60, 0, 525600, "minutes"));
  settings.root = options.get<std::string>("root", "");
  settings.read_only_layers = options.get<std::vector<std::string>>("read_only_layers", {});
  return settings;
}

void DiskCacheStore::check_options(const ComponentOptions& options) { read_settings(options); }

DiskCacheStore::DiskCacheStore(PluginContext& context)
    : DiskCacheStore(read_settings(context.options)) {}

DiskCacheStore::DiskCacheStore(const Settings& settings)
    : options_(settings.store),
      sync_(settings.sync),
      cleanup_interval_(settings.cleanup_interval),
      fallback_("cache/disk",
                "set [cache.disk] root or PLEXUS_CACHE_DIR to a directory of your own that you can write "
                "(a new or empty one, or one Plexus created)",
                options_.max_bytes) {
  const std::string& root = settings.root;
  for (const auto& layer : settings.read_only_layers) {
    fs::path dir = fs::absolute(layer);
    std::error_code ec;
    if (fs::exists(dir, ec)) cache_codec::check_shared_dir(dir, "read-only cache layer");
    layers_.push_back(std::move(dir));
  }
  try {
    root_ = fs::absolute(root.empty() ? cache_codec::default_root() : fs::path(root));
  } catch (const error& failure) {
    root_ = "(no cache directory)";
    fallback_.degrade(cache_codec::StoreMode::memory, root_.string(), failure.what());
    return;
  }
  open_root();
}

void DiskCacheStore::open_root() {
  using cache_codec::StoreMode;
  try {
    cache_codec::prepare_private_dir(root_, "cache directory");
  } catch (const error& failure) {
    // Still worth reading when it exists and nobody but its owner may write it.
    bool readable = false;
    try {
      cache_codec::check_shared_dir(root_, "cache directory");
      readable = true;
    } catch (const error&) {
    }
    fallback_.degrade(readable ? StoreMode::read_only : StoreMode::memory, root_.string(), failure.what());
    return;
  }
  const RootInspection found = inspect_root(root_);
  switch (found.claim) {
    case RootClaim::ours:
      break;
    case RootClaim::adoptable:
      try {
        mark_root(root_);
      } catch (const error& failure) {
        fallback_.degrade(StoreMode::read_only, root_.string(), failure.what());
        return;
      }
      break;
    case RootClaim::other_layout:
      fallback_.degrade(StoreMode::memory, root_.string(),
                        "cache directory '" + root_.string() + "' holds a cache of another layout ('" +
                            found.detail + "'; this build uses layout " + std::to_string(layout_version) + ")");
      return;
    case RootClaim::foreign:
      fallback_.degrade(StoreMode::read_only, root_.string(),
                        "cache directory '" + root_.string() +
                            "' was not created by Plexus and holds other files (e.g. '" + found.detail +
                            "'): Plexus writes, evicts and clears only a directory it created (marked by "
                            "CACHEDIR.TAG and .plexus-cache)");
      return;
  }
  try {
    FileLock probe(root_ / ".lock", FileLock::Mode::shared);
  } catch (const error& failure) {
    fallback_.degrade(StoreMode::read_only, root_.string(), failure.what());
  }
}

DiskCacheStore::~DiskCacheStore() {
  if (!fallback_.writable()) return;
  try {
    Counters flush;
    {
      std::lock_guard lock(mutex_);
      flush = unflushed_;
      unflushed_ = {};
    }
    const Counters now = update_counters(flush);
    const std::uint64_t max_bytes = options_.max_bytes;
    const bool over = max_bytes != 0 && now.bytes > static_cast<std::int64_t>(max_bytes);
    const bool age_due = options_.max_age && Clock::now() - Clock::time_point(std::chrono::seconds(now.last_cleanup)) >
                                                 cleanup_interval_;
    if (over || age_due) {
      evict(max_bytes ? std::optional(over ? max_bytes / 10 * 9 : max_bytes) : std::nullopt, options_.max_age);
    }
  } catch (const std::exception& failure) {
    logger().warn("cache/disk: cleanup at shutdown failed: {}", failure.what());
  }
}

fs::path DiskCacheStore::leaf_of(const fs::path& base, const CacheKey& key) const {
  if (options_.fixed_hash) {
    const std::string zero(32, '0');
    return base / zero / zero / zero / zero;
  }
  return base / cache_codec::field_hash(key.device) / cache_codec::field_hash(key.image) /
         cache_codec::field_hash(key.spec_constants) / cache_codec::field_hash(key.build_options);
}

std::optional<std::vector<std::byte>> DiskCacheStore::load(const CacheKey& key) {
  const cache_codec::Digest digest = cache_codec::key_digest(key);
  std::optional<std::vector<std::byte>> value;
  auto try_load = [&](const fs::path& base, bool writable) {
    try {
      value = load_from(base, key, digest, writable);
    } catch (const std::exception& failure) {
      fallback_.warn_once(std::string(failure.what()) + " (read as a miss)");
    }
  };
  if (fallback_.mode() != cache_codec::StoreMode::memory) try_load(root_, fallback_.writable());
  for (std::size_t i = 0; !value && i < layers_.size(); ++i) try_load(layers_[i], false);
  if (!value && !fallback_.writable()) value = fallback_.memory().load(key);
  std::lock_guard lock(mutex_);
  ++(value ? stats_.hits : stats_.misses);
  ++(value ? unflushed_.hits : unflushed_.misses);
  return value;
}

std::optional<std::vector<std::byte>> DiskCacheStore::load_from(const fs::path& base, const CacheKey& key,
                                                                const cache_codec::Digest& digest,
                                                                bool writable) {
  const fs::path leaf = leaf_of(base, key);
  auto damaged = [&](unsigned n, const fs::path& path, const std::optional<FileContent>& content,
                     const std::string& reason) {
    if (writable) remove_damaged(leaf, n, path, content, reason);
    else fallback_.warn_once("read-only entry " + path.string() + " is damaged: " + reason);
  };
  for (unsigned n : src_numbers(leaf)) {
    const fs::path src_path = slot_path(leaf, n, "src");
    std::string kind;
    auto src = read_file(src_path, &kind);
    if (!src) {
      if (!kind.empty()) damaged(n, src_path, std::nullopt, kind + " in place of an entry");
      continue;
    }
    auto decoded = cache_codec::decode_key(src->bytes);
    if (auto* reason = std::get_if<std::string>(&decoded)) {
      damaged(n, src_path, src, *reason);
      continue;
    }
    if (std::get<CacheKey>(decoded) != key) continue;  // a hash collision: the next <n>
    const fs::path bin_path = slot_path(leaf, n, "bin");
    auto bin = read_file(bin_path, &kind);
    if (!bin) {
      if (!kind.empty()) damaged(n, bin_path, std::nullopt, kind + " in place of an entry");
      return std::nullopt;  // being removed, or not a file
    }
    auto value = cache_codec::decode_entry(bin->bytes, &digest);
    if (auto* reason = std::get_if<std::string>(&value)) {
      damaged(n, bin_path, bin, *reason);
      return std::nullopt;
    }
    if (writable) touch(bin_path);
    return std::move(std::get<std::vector<std::byte>>(value));
  }
  return std::nullopt;
}

void DiskCacheStore::remove_damaged(const fs::path& leaf, unsigned n, const fs::path& checked,
                                    const std::optional<FileContent>& content, const std::string& reason) {
  logger().warn("cache/disk: removing damaged entry {}: {}", checked.string(), reason);
  FileLock root_lock(root_ / ".lock", FileLock::Mode::shared);
  FileLock leaf_lock(leaf / ".lock", FileLock::Mode::exclusive);
  if (content && !same_file(checked, *content)) return;  // replaced meanwhile by a writer
  const std::uint64_t bytes = file_size_or_zero(slot_path(leaf, n, "src")) + file_size_or_zero(slot_path(leaf, n, "bin"));
  remove_if_ours(slot_path(leaf, n, "src"));
  remove_if_ours(slot_path(leaf, n, "bin"));
  Counters delta;
  delta.bytes = -static_cast<std::int64_t>(bytes);
  update_counters(delta);
}

void DiskCacheStore::store(const CacheKey& key, std::span<const std::byte> value) {
  if (fallback_.writable()) {
    try {
      store_on_disk(key, value);
      return;
    } catch (const std::exception& failure) {
      fallback_.degrade(cache_codec::StoreMode::read_only, root_.string(),
                        std::string("cannot write an entry: ") + failure.what());
    }
  }
  fallback_.memory().store(key, value);
  std::lock_guard lock(mutex_);
  ++stats_.stores;
}

void DiskCacheStore::store_on_disk(const CacheKey& key, std::span<const std::byte> value) {
  const std::vector<std::byte> record =
      cache_codec::encode_entry(value, cache_codec::key_digest(key), options_.compression, options_.compression_level);
  const std::vector<std::byte> key_record = cache_codec::encode_key(key);
  std::int64_t delta_bytes = 0;
  {
    FileLock root_lock(root_ / ".lock", FileLock::Mode::shared);
    const fs::path leaf = leaf_of(root_, key);
    make_private_dirs(root_, leaf);
    FileLock leaf_lock(leaf / ".lock", FileLock::Mode::exclusive);
    // Holding the leaf's lock: every temporary file here is a dead writer's.
    std::error_code ec;
    for (fs::directory_iterator it(leaf, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename().string().starts_with(".tmp-")) remove_if_ours(it->path());
    }
    unsigned next = 0;
    std::optional<unsigned> existing;
    for (unsigned n : src_numbers(leaf, &next)) {
      auto src = read_file(slot_path(leaf, n, "src"));
      if (!src) continue;
      auto decoded = cache_codec::decode_key(src->bytes);
      if (auto* found = std::get_if<CacheKey>(&decoded); found && *found == key) {
        existing = n;
        break;
      }
    }
    const unsigned n = existing.value_or(next);
    const std::uint64_t old_bin = existing ? file_size_or_zero(slot_path(leaf, n, "bin")) : 0;
    // Both files complete (and on disk when sync is on) before either is visible; the
    // .bin is renamed first, so a visible .src always has its value.
    const fs::path bin_temp = write_temp(leaf, record, sync_);
    std::optional<fs::path> src_temp;
    try {
      if (!existing) src_temp = write_temp(leaf, key_record, sync_);
      if (options_.pause_before_publish.count() > 0) std::this_thread::sleep_for(options_.pause_before_publish);
    } catch (...) {
      ::unlink(bin_temp.c_str());
      throw;
    }
    rename_into(bin_temp, slot_path(leaf, n, "bin"));
    if (src_temp) rename_into(*src_temp, slot_path(leaf, n, "src"));
    if (sync_) fsync_dir(leaf);
    delta_bytes = static_cast<std::int64_t>(record.size()) - static_cast<std::int64_t>(old_bin) +
                  (existing ? 0 : static_cast<std::int64_t>(key_record.size()));
  }
  Counters delta;
  delta.bytes = delta_bytes;
  delta.stores = 1;
  const Counters total = update_counters(delta);
  {
    std::lock_guard lock(mutex_);
    ++stats_.stores;
  }
  if (options_.max_bytes != 0 && total.bytes > static_cast<std::int64_t>(options_.max_bytes)) {
    evict(options_.max_bytes / 10 * 9, options_.max_age);
  }
}

bool DiskCacheStore::erase(const CacheKey& key) {
  bool erased = fallback_.memory().erase(key);
  if (fallback_.writable()) {
    try {
      erased = erase_on_disk(key) || erased;
    } catch (const std::exception& failure) {
      fallback_.degrade(cache_codec::StoreMode::read_only, root_.string(),
                        std::string("cannot remove an entry: ") + failure.what());
    }
  }
  return erased;
}

bool DiskCacheStore::erase_on_disk(const CacheKey& key) {
  FileLock root_lock(root_ / ".lock", FileLock::Mode::shared);
  const fs::path leaf = leaf_of(root_, key);
  struct stat st {};
  if (::lstat(leaf.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  FileLock leaf_lock(leaf / ".lock", FileLock::Mode::exclusive);
  for (unsigned n : src_numbers(leaf)) {
    auto src = read_file(slot_path(leaf, n, "src"));
    if (!src) continue;
    auto decoded = cache_codec::decode_key(src->bytes);
    if (auto* found = std::get_if<CacheKey>(&decoded); !found || *found != key) continue;
    const std::uint64_t bytes = src->bytes.size() + file_size_or_zero(slot_path(leaf, n, "bin"));
    ::unlink(slot_path(leaf, n, "src").c_str());
    remove_if_ours(slot_path(leaf, n, "bin"));
    if (sync_) fsync_dir(leaf);
    Counters delta;
    delta.bytes = -static_cast<std::int64_t>(bytes);
    update_counters(delta);
    return true;
  }
  return false;
}

CacheStats DiskCacheStore::stats() const {
  std::uint64_t entries_now = 0, bytes_now = 0;
  if (fallback_.writable()) {
    for (const auto& entry : scan(root_).entries) {
      ++entries_now;
      bytes_now += entry.bytes;
    }
  } else {  // only what decodes as an entry (the root may be a user's directory) and memory
    const std::string prefix = root_.string() + "/";
    for (const auto& info : entries()) {
      if (info.location != "memory" && !info.location.starts_with(prefix)) continue;
      ++entries_now;
      bytes_now += info.stored_bytes;
    }
  }
  std::lock_guard lock(mutex_);
  CacheStats stats = stats_;
  stats.entries = entries_now;
  stats.bytes = bytes_now;
  return stats;
}

DiskCacheStore::Scan DiskCacheStore::scan(const fs::path& base) const {
  Scan out;
  std::error_code ec;
  for (const auto& d : hash_dirs(base))
    for (const auto& i : hash_dirs(d))
      for (const auto& s : hash_dirs(i))
        for (const auto& leaf : hash_dirs(s)) {
          std::map<unsigned, std::pair<std::optional<struct stat>, std::optional<struct stat>>> slots;  // src, bin
          for (fs::directory_iterator it(leaf, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name == ".lock") continue;
            struct stat st {};
            if (::lstat(it->path().c_str(), &st) != 0) continue;
            if (name.starts_with(".tmp-")) {
              out.garbage.push_back({it->path(), "unfinished write (temporary file)"});
              continue;
            }
            auto slot = parse_slot(name);
            if (!slot) continue;  // not a name of the layout: never touched
            if (!S_ISREG(st.st_mode)) {
              out.garbage.push_back({it->path(), file_kind(it->path()) + " in place of an entry file"});
              continue;
            }
            (slot->second == "src" ? slots[slot->first].first : slots[slot->first].second) = st;
          }
          ec.clear();
          for (const auto& [n, files] : slots) {
            if (!files.first || !files.second) {
              out.garbage.push_back({slot_path(leaf, n, files.first ? "src" : "bin"),
                                     files.first ? "key without a value" : "value without a key"});
              continue;
            }
            out.entries.push_back({leaf, n,
                                   static_cast<std::uint64_t>(files.first->st_size + files.second->st_size),
                                   mtime_of(*files.second)});
          }
        }
  return out;
}

std::vector<CacheEntryInfo> DiskCacheStore::entries() const {
  std::vector<CacheEntryInfo> out;
  std::vector<std::pair<fs::path, bool>> bases;
  if (fallback_.mode() != cache_codec::StoreMode::memory) bases.push_back({root_, !fallback_.writable()});
  for (const auto& layer : layers_) bases.push_back({layer, true});
  for (const auto& [base, read_only] : bases) {
    for (const auto& entry : scan(base).entries) {
      auto src = read_file(slot_path(entry.leaf, entry.n, "src"));
      if (!src) continue;
      auto key = cache_codec::decode_key(src->bytes);
      if (!std::holds_alternative<CacheKey>(key)) continue;  // verify() reports it
      CacheEntryInfo info;
      info.key = std::get<CacheKey>(key);
      info.id = cache_codec::hex(cache_codec::key_digest(info.key));
      info.stored_bytes = entry.bytes;
      info.last_use = entry.last_use;
      info.location = slot_path(entry.leaf, entry.n, "bin").string();
      info.read_only = read_only;
      if (auto head = read_head(info.location, cache_codec::entry_header_size)) {
        auto header = cache_codec::peek_entry(*head, file_size_or_zero(info.location));
        if (auto* h = std::get_if<cache_codec::EntryHeader>(&header)) info.value_bytes = h->value_size;
      }
      out.push_back(std::move(info));
    }
  }
  if (!fallback_.writable()) {
    for (auto& info : fallback_.memory().entries()) out.push_back(std::move(info));
  }
  return out;
}

void DiskCacheStore::check_entries(const fs::path& base, bool writable, CacheVerifyReport& report) {
  const Scan found = scan(base);
  for (const auto& [path, why] : found.garbage) {
    report.problems.push_back({path.string(), why, writable && remove_if_ours(path)});
  }
  for (const auto& entry : found.entries) {
    ++report.checked;
    const fs::path src_path = slot_path(entry.leaf, entry.n, "src");
    const fs::path bin_path = slot_path(entry.leaf, entry.n, "bin");
    std::string problem;
    std::string kind;
    auto src = read_file(src_path, &kind);
    auto bin = read_file(bin_path, &kind);
    if (!src || !bin) {
      problem = kind.empty() ? "vanished while checked" : kind + " in place of an entry file";
    } else {
      auto key = cache_codec::decode_key(src->bytes);
      if (auto* reason = std::get_if<std::string>(&key)) {
        problem = *reason;
      } else {
        const auto digest = cache_codec::key_digest(std::get<CacheKey>(key));
        auto value = cache_codec::decode_entry(bin->bytes, &digest);
        if (auto* why = std::get_if<std::string>(&value)) problem = *why;
      }
    }
    if (problem.empty()) {
      ++report.good;
      continue;
    }
    bool removed = false;
    if (writable) {
      removed = remove_if_ours(bin_path);
      remove_if_ours(src_path);
    }
    report.problems.push_back({bin_path.string(), removed ? problem : problem + " (not a cache file: left alone)",
                               removed});
  }
}

CacheVerifyReport DiskCacheStore::verify() {
  CacheVerifyReport report;
  if (fallback_.writable()) {
    FileLock root_lock(root_ / ".lock", FileLock::Mode::exclusive);
    check_entries(root_, true, report);
    remove_empty_dirs();
    const Scan after = scan(root_);
    std::int64_t bytes = 0;
    for (const auto& entry : after.entries) bytes += static_cast<std::int64_t>(entry.bytes);
    update_counters({}, bytes);
  } else if (fallback_.mode() == cache_codec::StoreMode::read_only) {
    check_entries(root_, false, report);
  }
  for (const auto& layer : layers_) check_entries(layer, false, report);
  return report;
}

CachePruneReport DiskCacheStore::prune(const CachePruneLimits& limits) {
  if (!fallback_.writable()) fallback_.refuse("prune", root_.string());
  return evict(limits.max_bytes, limits.max_age);
}

CachePruneReport DiskCacheStore::evict(std::optional<std::uint64_t> max_bytes,
                                       std::optional<std::chrono::seconds> max_age) {
  FileLock root_lock(root_ / ".lock", FileLock::Mode::exclusive);
  return evict_locked(max_bytes, max_age);
}

CachePruneReport DiskCacheStore::evict_locked(std::optional<std::uint64_t> max_bytes,
                                              std::optional<std::chrono::seconds> max_age) {
  // The root lock is held exclusively: no writer is between its temporary file and its
  // rename, so every temporary file and half-published entry belongs to a dead process.
  Scan found = scan(root_);
  for (const auto& leftover : found.garbage) remove_if_ours(leftover.first);
  std::sort(found.entries.begin(), found.entries.end(),
            [](const ScannedEntry& a, const ScannedEntry& b) { return a.last_use < b.last_use; });
  std::uint64_t total = 0;
  for (const auto& entry : found.entries) total += entry.bytes;
  const auto now = Clock::now();
  CachePruneReport report;
  for (const auto& entry : found.entries) {
    const bool too_old = max_age && now - entry.last_use > *max_age;
    const bool too_big = max_bytes && total > *max_bytes;
    const fs::path src = slot_path(entry.leaf, entry.n, "src");
    const fs::path bin = slot_path(entry.leaf, entry.n, "bin");
    // Only what the store recognises as its own, by content: never a file by its name alone.
    if ((!too_old && !too_big) || !is_cache_file(src, FileRole::key) || !is_cache_file(bin, FileRole::entry)) {
      ++report.remaining_entries;
      continue;
    }
    ::unlink(src.c_str());
    ::unlink(bin.c_str());
    ++report.removed_entries;
    report.removed_bytes += entry.bytes;
    total -= entry.bytes;
  }
  report.remaining_bytes = total;
  remove_empty_dirs();
  Counters delta;
  delta.evictions = report.removed_entries;
  update_counters(delta, static_cast<std::int64_t>(total), true);
  if (report.removed_entries) {
    std::lock_guard lock(mutex_);
    stats_.evictions += report.removed_entries;
    logger().debug("cache/disk: evicted {} entries ({} bytes) from {}", report.removed_entries,
                   report.removed_bytes, root_.string());
  }
  return report;
}

void DiskCacheStore::remove_empty_dirs() const {
  // Only with the root lock held exclusively: no writer is inside a leaf. Only directories
  // of the layout (hash names, four levels), and a leaf only when it holds nothing but its
  // empty lock file.
  for (const auto& d : hash_dirs(root_)) {
    for (const auto& i : hash_dirs(d)) {
      for (const auto& s : hash_dirs(i)) {
        for (const auto& leaf : hash_dirs(s)) {
          bool only_lock = true;
          std::error_code ec;
          for (fs::directory_iterator it(leaf, ec), end; !ec && it != end; it.increment(ec)) {
            struct stat st {};
            if (it->path().filename() != ".lock" || ::lstat(it->path().c_str(), &st) != 0 ||
                !S_ISREG(st.st_mode) || st.st_size != 0)
              only_lock = false;
          }
          if (ec || !only_lock) continue;
          ::unlink((leaf / ".lock").c_str());
          ::rmdir(leaf.c_str());
        }
        ::rmdir(s.c_str());  // fails unless empty
      }
      ::rmdir(i.c_str());
    }
    ::rmdir(d.c_str());
  }
}

std::uint64_t DiskCacheStore::clear() {
  if (!fallback_.writable()) fallback_.refuse("clear", root_.string());
  FileLock root_lock(root_ / ".lock", FileLock::Mode::exclusive);
  return evict_locked(0, std::nullopt).removed_entries;
}

DiskCacheStore::Counters DiskCacheStore::read_counters() const {
  Counters c;
  auto file = read_file(root_ / ".stats");
  if (!file) return c;
  std::istringstream in(std::string(reinterpret_cast<const char*>(file->bytes.data()), file->bytes.size()));
  std::string name;
  std::int64_t value = 0;
  while (in >> name >> value) {
    if (name == "bytes") c.bytes = value;
    else if (name == "hits") c.hits = static_cast<std::uint64_t>(value);
    else if (name == "misses") c.misses = static_cast<std::uint64_t>(value);
    else if (name == "stores") c.stores = static_cast<std::uint64_t>(value);
    else if (name == "evictions") c.evictions = static_cast<std::uint64_t>(value);
    else if (name == "last_cleanup") c.last_cleanup = value;
  }
  return c;
}

DiskCacheStore::Counters DiskCacheStore::update_counters(const Counters& delta, std::optional<std::int64_t> set_bytes,
                                                         bool set_cleanup) const {
  const fs::path path = root_ / ".stats";
  FileLock lock(path, FileLock::Mode::exclusive);
  Counters c = read_counters();
  c.bytes = std::max<std::int64_t>(0, set_bytes ? *set_bytes : c.bytes + delta.bytes);
  c.hits += delta.hits;
  c.misses += delta.misses;
  c.stores += delta.stores;
  c.evictions += delta.evictions;
  if (set_cleanup) c.last_cleanup = std::chrono::duration_cast<std::chrono::seconds>(Clock::now().time_since_epoch()).count();
  std::ostringstream out;
  out << "bytes " << c.bytes << "\nhits " << c.hits << "\nmisses " << c.misses << "\nstores " << c.stores
      << "\nevictions " << c.evictions << "\nlast_cleanup " << c.last_cleanup << '\n';
  const std::string updated = out.str();
  if (::pwrite(lock.fd(), updated.data(), updated.size(), 0) == static_cast<ssize_t>(updated.size())) {
    [[maybe_unused]] int ignored = ::ftruncate(lock.fd(), static_cast<off_t>(updated.size()));
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> DiskCacheStore::describe() const {
  Counters c;
  try {
    c = fallback_.writable() ? update_counters({}) : read_counters();
  } catch (const std::exception& failure) {
    fallback_.warn_once(std::string("cannot read the lifetime counters: ") + failure.what());
  }
  std::string layers;
  for (const auto& layer : layers_) layers += (layers.empty() ? "" : ", ") + layer.string();
  std::vector<std::pair<std::string, std::string>> out = {
      {"root", root_.string()},
      {"read-only layers", layers.empty() ? "(none)" : layers},
      {"max bytes", options_.max_bytes ? std::to_string(options_.max_bytes) : "unbounded"},
      {"max age", options_.max_age ? std::to_string(options_.max_age->count() / 86400) + " days" : "unbounded"},
      {"compression", options_.compression == cache_codec::Compression::zstd ? "zstd" : "none"},
      {"lifetime hits", std::to_string(c.hits)},
      {"lifetime misses", std::to_string(c.misses)},
      {"lifetime stores", std::to_string(c.stores)},
      {"lifetime evictions", std::to_string(c.evictions)},
      {"last cleanup", c.last_cleanup ? iso_time(Clock::time_point(std::chrono::seconds(c.last_cleanup))) : "never"},
  };
  for (auto& line : fallback_.describe()) out.push_back(std::move(line));
  return out;
}

}  // namespace plexus::disk_cache
