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
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

void make_private_dirs(const fs::path& root, const fs::path& leaf) {
  fs::path at = root;
  for (const auto& part : fs::relative(leaf, root)) {
    at /= part;
    if (::mkdir(at.c_str(), 0700) != 0 && errno != EEXIST) {
      throw error(error_category::io, "cannot create cache directory '" + at.string() + "': " + std::strerror(errno));
    }
  }
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

DiskCacheStore::DiskCacheStore(PluginContext& context)
    : max_bytes_(static_cast<std::uint64_t>(context.options.get_non_negative("max_bytes", std::int64_t{1} << 30))),
      compression_(cache_codec::parse_compression(context.options.get<std::string>("compression", "none"),
                                                  context.options.table_path() + ".compression")),
      compression_level_(static_cast<int>(context.options.get<std::int64_t>("compression_level", 3))),
      sync_(context.options.get<bool>("sync", true)),
      fixed_hash_(context.options.get<bool>("test_fixed_hash", false)),
      cleanup_interval_(std::chrono::minutes(context.options.get_non_negative("cleanup_interval_minutes", 60))),
      pause_before_publish_(context.options.get_non_negative("test_pause_before_publish_ms", 0)) {
  const std::string root = context.options.get<std::string>("root", "");
  root_ = root.empty() ? cache_codec::default_root() : fs::path(root);
  root_ = fs::absolute(root_);
  const std::int64_t days = context.options.get_non_negative("max_age_days", 30);
  if (days > 0) max_age_ = std::chrono::hours(24) * days;
  for (const auto& layer : context.options.get<std::vector<std::string>>("read_only_layers", {})) {
    fs::path dir = fs::absolute(layer);
    std::error_code ec;
    if (fs::exists(dir, ec)) cache_codec::check_shared_dir(dir, "read-only cache layer");
    layers_.push_back(std::move(dir));
  }
  cache_codec::prepare_private_dir(root_, "cache directory");
}

DiskCacheStore::~DiskCacheStore() {
  try {
    Counters flush;
    {
      std::lock_guard lock(mutex_);
      flush = unflushed_;
      unflushed_ = {};
    }
    const Counters now = update_counters(flush);
    const bool over = max_bytes_ != 0 && now.bytes > static_cast<std::int64_t>(max_bytes_);
    const bool age_due = max_age_ && Clock::now() - Clock::time_point(std::chrono::seconds(now.last_cleanup)) >
                                         cleanup_interval_;
    if (over || age_due) {
      evict(max_bytes_ ? std::optional(over ? max_bytes_ / 10 * 9 : max_bytes_) : std::nullopt, max_age_);
    }
  } catch (const std::exception& failure) {
    logger().warn("cache/disk: cleanup at shutdown failed: {}", failure.what());
  }
}

fs::path DiskCacheStore::leaf_of(const fs::path& base, const CacheKey& key) const {
  if (fixed_hash_) {
    const std::string zero(32, '0');
    return base / zero / zero / zero / zero;
  }
  return base / cache_codec::field_hash(key.device) / cache_codec::field_hash(key.image) /
         cache_codec::field_hash(key.spec_constants) / cache_codec::field_hash(key.build_options);
}

std::optional<std::vector<std::byte>> DiskCacheStore::load(const CacheKey& key) {
  const cache_codec::Digest digest = cache_codec::key_digest(key);
  auto value = load_from(root_, key, digest, true);
  for (std::size_t i = 0; !value && i < layers_.size(); ++i) value = load_from(layers_[i], key, digest, false);
  std::lock_guard lock(mutex_);
  ++(value ? stats_.hits : stats_.misses);
  ++(value ? unflushed_.hits : unflushed_.misses);
  return value;
}

std::optional<std::vector<std::byte>> DiskCacheStore::load_from(const fs::path& base, const CacheKey& key,
                                                                const cache_codec::Digest& digest,
                                                                bool writable) {
  const fs::path leaf = leaf_of(base, key);
  for (unsigned n : src_numbers(leaf)) {
    const fs::path src_path = slot_path(leaf, n, "src");
    auto src = read_file(src_path);
    if (!src) continue;
    auto decoded = cache_codec::decode_key(src->bytes);
    if (auto* reason = std::get_if<std::string>(&decoded)) {
      if (writable) remove_damaged(leaf, n, src_path, *src, *reason);
      else logger().warn("cache/disk: read-only layer entry {} is damaged: {}", src_path.string(), *reason);
      continue;
    }
    if (std::get<CacheKey>(decoded) != key) continue;  // a hash collision: the next <n>
    const fs::path bin_path = slot_path(leaf, n, "bin");
    auto bin = read_file(bin_path);
    if (!bin) return std::nullopt;  // being removed
    auto value = cache_codec::decode_entry(bin->bytes, &digest);
    if (auto* reason = std::get_if<std::string>(&value)) {
      if (writable) remove_damaged(leaf, n, bin_path, *bin, *reason);
      else logger().warn("cache/disk: read-only layer entry {} is damaged: {}", bin_path.string(), *reason);
      return std::nullopt;
    }
    if (writable) touch(bin_path);
    return std::move(std::get<std::vector<std::byte>>(value));
  }
  return std::nullopt;
}

void DiskCacheStore::remove_damaged(const fs::path& leaf, unsigned n, const fs::path& checked,
                                    const FileContent& content, const std::string& reason) {
  logger().warn("cache/disk: removing damaged entry {}: {}", checked.string(), reason);
  FileLock root_lock(root_ / ".lock", FileLock::Mode::shared);
  FileLock leaf_lock(leaf / ".lock", FileLock::Mode::exclusive);
  if (!same_file(checked, content)) return;  // replaced meanwhile by a writer
  const std::uint64_t bytes = file_size_or_zero(slot_path(leaf, n, "src")) + file_size_or_zero(slot_path(leaf, n, "bin"));
  ::unlink(slot_path(leaf, n, "src").c_str());
  ::unlink(slot_path(leaf, n, "bin").c_str());
  Counters delta;
  delta.bytes = -static_cast<std::int64_t>(bytes);
  update_counters(delta);
}

void DiskCacheStore::store(const CacheKey& key, std::span<const std::byte> value) {
  const std::vector<std::byte> record =
      cache_codec::encode_entry(value, cache_codec::key_digest(key), compression_, compression_level_);
  const std::vector<std::byte> key_record = cache_codec::encode_key(key);
  std::int64_t delta_bytes = 0;
  {
    FileLock root_lock(root_ / ".lock", FileLock::Mode::shared);
    const fs::path leaf = leaf_of(root_, key);
    make_private_dirs(root_, leaf);
    FileLock leaf_lock(leaf / ".lock", FileLock::Mode::exclusive);
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
      if (pause_before_publish_.count() > 0) std::this_thread::sleep_for(pause_before_publish_);
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
  if (max_bytes_ != 0 && total.bytes > static_cast<std::int64_t>(max_bytes_)) {
    evict(max_bytes_ / 10 * 9, max_age_);
  }
}

bool DiskCacheStore::erase(const CacheKey& key) {
  FileLock root_lock(root_ / ".lock", FileLock::Mode::shared);
  const fs::path leaf = leaf_of(root_, key);
  std::error_code ec;
  if (!fs::is_directory(leaf, ec)) return false;
  FileLock leaf_lock(leaf / ".lock", FileLock::Mode::exclusive);
  for (unsigned n : src_numbers(leaf)) {
    auto src = read_file(slot_path(leaf, n, "src"));
    if (!src) continue;
    auto decoded = cache_codec::decode_key(src->bytes);
    if (auto* found = std::get_if<CacheKey>(&decoded); !found || *found != key) continue;
    const std::uint64_t bytes = src->bytes.size() + file_size_or_zero(slot_path(leaf, n, "bin"));
    ::unlink(slot_path(leaf, n, "src").c_str());
    ::unlink(slot_path(leaf, n, "bin").c_str());
    if (sync_) fsync_dir(leaf);
    Counters delta;
    delta.bytes = -static_cast<std::int64_t>(bytes);
    update_counters(delta);
    return true;
  }
  return false;
}

CacheStats DiskCacheStore::stats() const {
  const Scan found = scan(root_);
  std::lock_guard lock(mutex_);
  CacheStats stats = stats_;
  stats.entries = found.entries.size();
  stats.bytes = 0;
  for (const auto& entry : found.entries) stats.bytes += entry.bytes;
  return stats;
}

DiskCacheStore::Scan DiskCacheStore::scan(const fs::path& base) const {
  Scan out;
  std::error_code ec;
  auto subdirs = [](const fs::path& dir) {
    std::vector<fs::path> dirs;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      if (!it->path().filename().string().starts_with(".") && it->is_directory(error)) dirs.push_back(it->path());
    }
    std::sort(dirs.begin(), dirs.end());
    return dirs;
  };
  for (const auto& d : subdirs(base))
    for (const auto& i : subdirs(d))
      for (const auto& s : subdirs(i))
        for (const auto& leaf : subdirs(s)) {
          std::map<unsigned, std::pair<std::optional<struct stat>, std::optional<struct stat>>> slots;  // src, bin
          for (fs::directory_iterator it(leaf, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name == ".lock") continue;
            if (name.starts_with(".tmp-")) {
              out.garbage.push_back({it->path(), "unfinished write (temporary file)"});
              continue;
            }
            auto slot = parse_slot(name);
            struct stat st {};
            if (!slot || ::stat(it->path().c_str(), &st) != 0) continue;
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
  std::vector<std::pair<fs::path, bool>> bases = {{root_, false}};
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
      std::ifstream bin(info.location, std::ios::binary);
      std::vector<std::byte> head(cache_codec::entry_header_size);
      bin.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
      head.resize(static_cast<std::size_t>(bin.gcount()));
      auto header = cache_codec::peek_entry(head, file_size_or_zero(info.location));
      if (auto* h = std::get_if<cache_codec::EntryHeader>(&header)) info.value_bytes = h->value_size;
      out.push_back(std::move(info));
    }
  }
  return out;
}

CacheVerifyReport DiskCacheStore::verify() {
  CacheVerifyReport report;
  auto check = [&](const fs::path& base, bool writable) {
    const Scan found = scan(base);
    for (const auto& [path, why] : found.garbage) {
      if (writable) ::unlink(path.c_str());
      report.problems.push_back({path.string(), why, writable});
    }
    for (const auto& entry : found.entries) {
      ++report.checked;
      const fs::path src_path = slot_path(entry.leaf, entry.n, "src");
      const fs::path bin_path = slot_path(entry.leaf, entry.n, "bin");
      std::string problem;
      auto src = read_file(src_path);
      auto bin = read_file(bin_path);
      if (!src || !bin) {
        problem = "vanished while checked";
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
      if (writable) {
        ::unlink(src_path.c_str());
        ::unlink(bin_path.c_str());
      }
      report.problems.push_back({bin_path.string(), problem, writable});
    }
  };
  {
    FileLock root_lock(root_ / ".lock", FileLock::Mode::exclusive);
    check(root_, true);
    remove_empty_dirs();
    const Scan after = scan(root_);
    std::int64_t bytes = 0;
    for (const auto& entry : after.entries) bytes += static_cast<std::int64_t>(entry.bytes);
    update_counters({}, bytes);
  }
  for (const auto& layer : layers_) check(layer, false);
  return report;
}

CachePruneReport DiskCacheStore::prune(const CachePruneLimits& limits) {
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
  for (const auto& [path, why] : found.garbage) ::unlink(path.c_str());
  std::sort(found.entries.begin(), found.entries.end(),
            [](const ScannedEntry& a, const ScannedEntry& b) { return a.last_use < b.last_use; });
  std::uint64_t total = 0;
  for (const auto& entry : found.entries) total += entry.bytes;
  const auto now = Clock::now();
  CachePruneReport report;
  for (const auto& entry : found.entries) {
    const bool too_old = max_age && now - entry.last_use > *max_age;
    const bool too_big = max_bytes && total > *max_bytes;
    if (!too_old && !too_big) {
      ++report.remaining_entries;
      continue;
    }
    ::unlink(slot_path(entry.leaf, entry.n, "src").c_str());
    ::unlink(slot_path(entry.leaf, entry.n, "bin").c_str());
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
  // Only with the root lock held exclusively: no writer is inside a leaf.
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (fs::recursive_directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && !it->path().filename().string().starts_with(".")) dirs.push_back(it->path());
  }
  std::sort(dirs.rbegin(), dirs.rend());  // children before their parents
  for (const auto& dir : dirs) {
    bool only_lock = true;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename() != ".lock") only_lock = false;
    }
    if (!only_lock) continue;
    ::unlink((dir / ".lock").c_str());
    ::rmdir(dir.c_str());
  }
}

std::uint64_t DiskCacheStore::clear() {
  FileLock root_lock(root_ / ".lock", FileLock::Mode::exclusive);
  const std::uint64_t removed = scan(root_).entries.size();
  std::error_code ec;
  for (fs::directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->path().filename().string().starts_with(".")) fs::remove_all(it->path(), ec);
  }
  update_counters({}, 0, true);
  return removed;
}

DiskCacheStore::Counters DiskCacheStore::update_counters(const Counters& delta, std::optional<std::int64_t> set_bytes,
                                                         bool set_cleanup) const {
  const fs::path path = root_ / ".stats";
  FileLock lock(path, FileLock::Mode::exclusive);
  Counters c;
  std::string text;
  {
    char buffer[1024];
    const ssize_t n = ::pread(lock.fd(), buffer, sizeof buffer, 0);
    if (n > 0) text.assign(buffer, static_cast<std::size_t>(n));
  }
  std::istringstream in(text);
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
  const Counters c = update_counters({});
  std::string layers;
  for (const auto& layer : layers_) layers += (layers.empty() ? "" : ", ") + layer.string();
  return {
      {"root", root_.string()},
      {"read-only layers", layers.empty() ? "(none)" : layers},
      {"max bytes", max_bytes_ ? std::to_string(max_bytes_) : "unbounded"},
      {"max age", max_age_ ? std::to_string(max_age_->count() / 86400) + " days" : "unbounded"},
      {"compression", compression_ == cache_codec::Compression::zstd ? "zstd" : "none"},
      {"lifetime hits", std::to_string(c.hits)},
      {"lifetime misses", std::to_string(c.misses)},
      {"lifetime stores", std::to_string(c.stores)},
      {"lifetime evictions", std::to_string(c.evictions)},
      {"last cleanup", c.last_cleanup ? iso_time(Clock::time_point(std::chrono::seconds(c.last_cleanup))) : "never"},
  };
}

}  // namespace plexus::disk_cache
