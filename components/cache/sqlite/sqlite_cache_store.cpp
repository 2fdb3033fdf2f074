#include "sqlite_cache_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include "cache_root.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "sqlite_statement.hpp"

namespace plexus::sqlite_cache {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::system_clock;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
}

constexpr const char* schema = R"(
CREATE TABLE IF NOT EXISTS entries(
  id INTEGER PRIMARY KEY,
  digest BLOB NOT NULL,
  key BLOB NOT NULL,
  value BLOB NOT NULL,
  stored_bytes INTEGER NOT NULL,
  last_use INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS entries_digest ON entries(digest);
CREATE INDEX IF NOT EXISTS entries_last_use ON entries(last_use);
CREATE TABLE IF NOT EXISTS counters(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
)";

}  // namespace

// [cache.sqlite]: the shared store options and its own (sqlite_cache_store.hpp).
struct SqliteCacheStore::Settings {
  cache_codec::StoreOptions store;
  int busy_timeout_ms = 30000;
  std::string path;
};

SqliteCacheStore::Settings SqliteCacheStore::read_settings(const ComponentOptions& options) {
  Settings settings;
  settings.store = cache_codec::read_store_options(options);
  settings.busy_timeout_ms =
      static_cast<int>(options.get_in_range("busy_timeout_ms", 30000, 0, 3600000, "ms"));
  settings.path = options.get<std::string>("path", "");
  return settings;
}

void SqliteCacheStore::check_options(const ComponentOptions& options) { read_settings(options); }

SqliteCacheStore::SqliteCacheStore(PluginContext& context)
    : SqliteCacheStore(read_settings(context.options)) {}

SqliteCacheStore::SqliteCacheStore(const Settings& settings)
    : options_(settings.store),
      busy_timeout_ms_(settings.busy_timeout_ms),
      fallback_("cache/sqlite",
                "set [cache.sqlite] path (or PLEXUS_CACHE_DIR) to a file in a directory of your own that "
                "you can write",
                options_.max_bytes) {
  const std::string& path = settings.path;
  try {
    path_ = fs::absolute(path.empty() ? cache_codec::default_root() / "plexus-cache.sqlite" : fs::path(path));
  } catch (const error& failure) {
    path_ = "(no cache directory)";
    fallback_.degrade(StoreMode::memory, path_.string(), failure.what());
    return;
  }
  std::lock_guard lock(mutex_);
  try {
    cache_codec::prepare_private_dir(path_.parent_path(), "cache directory");
    open_locked();
  } catch (const error& failure) {
    close_locked();
    bool readable = false;
    try {
      cache_codec::check_shared_dir(path_.parent_path(), "cache directory");
      readable = open_read_only_locked();
    } catch (const error&) {
    }
    fallback_.degrade(readable ? StoreMode::read_only : StoreMode::memory, path_.string(), failure.what());
  }
}

void SqliteCacheStore::open_locked() {
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);  // 0600 before SQLite sees it
    if (fd < 0) {
      throw error(error_category::io, "cache/sqlite: cannot open '" + path_.string() + "': " + std::strerror(errno));
    }
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    ::close(fd);
    if (!regular) throw error(error_category::io, "cache/sqlite: '" + path_.string() + "' is not a regular file");
    int rc = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
      close_locked();
      fail(nullptr, rc, "cannot open '" + path_.string() + "'");
    }
    sqlite3_busy_timeout(db_, busy_timeout_ms_);
    try {
      exec(db_, "PRAGMA journal_mode=WAL");
      exec(db_, "PRAGMA synchronous=NORMAL");
      exec(db_, schema);
      return;
    } catch (const error& failure) {
      const int code = last_failure_code() & 0xff;
      close_locked();
      if ((code != SQLITE_NOTADB && code != SQLITE_CORRUPT) || attempt > 0) throw;
      const fs::path aside = path_.string() + ".corrupt-" + std::to_string(now_ms());
      logger().warn("cache/sqlite: '{}' is not a usable database ({}); moved aside to '{}', starting empty",
                    path_.string(), failure.what(), aside.string());
      std::error_code ec;
      fs::rename(path_, aside, ec);
      set_aside_to_ = aside.string();
      for (const char* suffix : {"-wal", "-shm"}) fs::remove(path_.string() + suffix, ec);
    }
  }
}

bool SqliteCacheStore::open_read_only_locked() {
  // immutable=1: no locks, no -shm or -wal to create (the directory or file may not be
  // writable); what it reads is still checked entry by entry.
  std::string uri = "file:";
  for (char c : path_.string()) {
    if (c == '%' || c == '?' || c == '#') {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", static_cast<unsigned char>(c));
      uri += escaped;
    } else {
      uri += c;
    }
  }
  uri += "?immutable=1";
  if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr) !=
      SQLITE_OK) {
    close_locked();
    return false;
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms_);
  try {
    Statement probe(db_, "SELECT count(*) FROM entries");
    probe.step();
    return true;
  } catch (const error&) {
    close_locked();
    return false;
  }
}

void SqliteCacheStore::close_locked() const {
  if (db_) sqlite3_close(db_);
  db_ = nullptr;
}

void SqliteCacheStore::set_aside_locked(const std::string& why) const {
  close_locked();
  const fs::path aside = path_.string() + ".corrupt-" + std::to_string(now_ms());
  std::error_code ec;
  fs::rename(path_, aside, ec);
  for (const char* suffix : {"-wal", "-shm"}) fs::remove(path_.string() + suffix, ec);
  set_aside_to_ = aside.string();
  logger().warn("cache/sqlite: '{}' is corrupt ({}); moved aside to '{}', starting empty", path_.string(), why,
                aside.string());
  try {
    const_cast<SqliteCacheStore*>(this)->open_locked();
  } catch (const error& failure) {
    close_locked();
    fallback_.degrade(StoreMode::memory, path_.string(), failure.what());
  }
}

bool SqliteCacheStore::attempt_locked(const std::string& action, StoreMode on_failure,
                                      const std::function<void()>& op, bool rethrow) const {
  for (int round = 0; round < 2 && db_; ++round) {
    reset_failure_code();
    try {
      op();
      return true;
    } catch (const error& failure) {
      const int code = last_failure_code() & 0xff;
      if ((code == SQLITE_CORRUPT || code == SQLITE_NOTADB) && round == 0 && fallback_.writable()) {
        set_aside_locked(failure.what());
        continue;
      }
      if (rethrow) throw;
      fallback_.degrade(on_failure, path_.string(), "cannot " + action + ": " + failure.what());
      if (fallback_.mode() == StoreMode::memory) close_locked();
      return false;
    }
  }
  return false;
}

SqliteCacheStore::~SqliteCacheStore() {
  std::lock_guard lock(mutex_);
  if (fallback_.writable()) {
    try {
      Transaction transaction(db_);
      add_counter_locked("hits", static_cast<std::int64_t>(unflushed_hits_));
      add_counter_locked("misses", static_cast<std::int64_t>(unflushed_misses_));
      transaction.commit();
      const bool over = options_.max_bytes && counter_locked("bytes") > static_cast<std::int64_t>(options_.max_bytes);
      bool expired = false;
      if (options_.max_age) {  // an index look-up, so cheap enough for every shutdown
        Statement oldest(db_, "SELECT EXISTS(SELECT 1 FROM entries WHERE last_use < ?1)");
        oldest.bind(1, now_ms() - std::chrono::duration_cast<std::chrono::milliseconds>(*options_.max_age).count());
        expired = oldest.step() && oldest.integer(0) != 0;
      }
      if (over || expired) {
        evict_locked(options_.max_bytes ? std::optional(over ? options_.max_bytes / 10 * 9 : options_.max_bytes)
                                        : std::nullopt,
                     options_.max_age);
      }
    } catch (const std::exception& failure) {
      logger().warn("cache/sqlite: cleanup at shutdown failed: {}", failure.what());
    }
  }
  close_locked();
}

cache_codec::Digest SqliteCacheStore::address(const CacheKey& key) const {
  return options_.fixed_hash ? cache_codec::Digest{} : cache_codec::key_digest(key);
}

std::int64_t SqliteCacheStore::counter_locked(const char* name) const {
  Statement query(db_, "SELECT coalesce((SELECT value FROM counters WHERE name = ?1), 0)");
  query.bind_text(1, name);
  return query.step() ? query.integer(0) : 0;
}

void SqliteCacheStore::add_counter_locked(const char* name, std::int64_t delta) {
  if (delta == 0) return;
  Statement upsert(db_,
                   "INSERT INTO counters(name, value) VALUES(?1, ?2) "
                   "ON CONFLICT(name) DO UPDATE SET value = max(0, value + ?2)");
  upsert.bind_text(1, name);
  upsert.bind(2, delta);
  upsert.step();
}

std::optional<std::vector<std::byte>> SqliteCacheStore::load(const CacheKey& key) {
  const cache_codec::Digest digest = cache_codec::key_digest(key);
  const cache_codec::Digest addr = address(key);
  std::lock_guard lock(mutex_);
  std::optional<std::vector<std::byte>> result;
  std::vector<std::pair<std::int64_t, std::string>> damaged;
  std::optional<std::int64_t> hit;
  attempt_locked("read an entry", StoreMode::memory, [&] {
    result.reset();
    damaged.clear();
    hit.reset();
    Statement select(db_, "SELECT id, key, value FROM entries WHERE digest = ?1 ORDER BY id");
    select.bind(1, std::span<const std::uint8_t>(addr));
    while (select.step()) {
      auto decoded = cache_codec::decode_key(select.blob(1));
      if (auto* reason = std::get_if<std::string>(&decoded)) {
        damaged.push_back({select.integer(0), *reason});
        continue;
      }
      if (std::get<CacheKey>(decoded) != key) continue;  // a digest collision
      auto value = cache_codec::decode_entry(select.blob(2), &digest);
      if (auto* reason = std::get_if<std::string>(&value)) {
        damaged.push_back({select.integer(0), *reason});
        break;
      }
      result = std::move(std::get<std::vector<std::byte>>(value));
      hit = select.integer(0);
      break;
    }
  });
  if (fallback_.writable() && (hit || !damaged.empty())) {
    attempt_locked("update an entry", StoreMode::read_only, [&] {
      if (hit) {
        Statement touch(db_, "UPDATE entries SET last_use = ?1 WHERE id = ?2");
        touch.bind(1, now_ms()).bind(2, *hit);
        touch.step();
      }
      if (damaged.empty()) return;
      Transaction transaction(db_);
      for (const auto& [id, reason] : damaged) {
        logger().warn("cache/sqlite: removing damaged entry {} of '{}': {}", id, path_.string(), reason);
        Statement size(db_, "SELECT stored_bytes FROM entries WHERE id = ?1");
        size.bind(1, id);
        if (size.step()) add_counter_locked("bytes", -size.integer(0));
        Statement remove(db_, "DELETE FROM entries WHERE id = ?1");
        remove.bind(1, id);
        remove.step();
      }
      transaction.commit();
    });
  } else {
    for (const auto& [id, reason] : damaged)
      fallback_.warn_once("read-only entry " + std::to_string(id) + " of '" + path_.string() + "' is damaged: " + reason);
  }
  if (!result && !fallback_.writable()) result = fallback_.memory().load(key);
  ++(result ? stats_.hits : stats_.misses);
  ++(result ? unflushed_hits_ : unflushed_misses_);
  return result;
}

void SqliteCacheStore::store(const CacheKey& key, std::span<const std::byte> value) {
  const std::vector<std::byte> record =
      cache_codec::encode_entry(value, cache_codec::key_digest(key), options_.compression, options_.compression_level);
  const std::vector<std::byte> key_record = cache_codec::encode_key(key);
  const cache_codec::Digest addr = address(key);
  const auto stored = static_cast<std::int64_t>(record.size() + key_record.size());
  std::lock_guard lock(mutex_);
  ++stats_.stores;
  const bool done = fallback_.writable() && attempt_locked("write an entry", StoreMode::read_only, [&] {
    {
      Transaction transaction(db_);
      const std::optional<Row> row = row_of_locked(addr, key);
      const std::optional<std::int64_t> existing = row ? std::optional(row->id) : std::nullopt;
      const std::int64_t old_bytes = row ? row->stored_bytes : 0;
      if (existing) {
        Statement update(db_, "UPDATE entries SET value = ?1, stored_bytes = ?2, last_use = ?3 WHERE id = ?4");
        update.bind(1, std::span<const std::byte>(record)).bind(2, stored).bind(3, now_ms()).bind(4, *existing);
        update.step();
      } else {
        Statement insert(db_,
                         "INSERT INTO entries(digest, key, value, stored_bytes, last_use) VALUES(?1, ?2, ?3, ?4, ?5)");
        insert.bind(1, std::span<const std::uint8_t>(addr))
            .bind(2, std::span<const std::byte>(key_record))
            .bind(3, std::span<const std::byte>(record))
            .bind(4, stored)
            .bind(5, now_ms());
        insert.step();
      }
      add_counter_locked("bytes", stored - old_bytes);
      add_counter_locked("stores", 1);
      if (options_.pause_before_publish.count() > 0) std::this_thread::sleep_for(options_.pause_before_publish);
      transaction.commit();
    }
    if (options_.max_bytes != 0 && counter_locked("bytes") > static_cast<std::int64_t>(options_.max_bytes)) {
      evict_locked(options_.max_bytes / 10 * 9, options_.max_age);
    }
  });
  if (!done) fallback_.memory().store(key, value);
}

std::optional<SqliteCacheStore::Row> SqliteCacheStore::row_of_locked(const cache_codec::Digest& addr,
                                                                     const CacheKey& key) const {
  Statement select(db_, "SELECT id, key, stored_bytes FROM entries WHERE digest = ?1 ORDER BY id");
  select.bind(1, std::span<const std::uint8_t>(addr));
  while (select.step()) {
    auto decoded = cache_codec::decode_key(select.blob(1));
    if (auto* found = std::get_if<CacheKey>(&decoded); found && *found == key)
      return Row{select.integer(0), select.integer(2)};
  }
  return std::nullopt;
}

bool SqliteCacheStore::erase(const CacheKey& key) {
  const cache_codec::Digest addr = address(key);
  std::lock_guard lock(mutex_);
  bool erased = fallback_.memory().erase(key);
  if (!fallback_.writable()) return erased;
  attempt_locked("remove an entry", StoreMode::read_only, [&] {
    Transaction transaction(db_);
    const std::optional<Row> row = row_of_locked(addr, key);
    if (!row) return;
    Statement remove(db_, "DELETE FROM entries WHERE id = ?1");
    remove.bind(1, row->id);
    remove.step();
    add_counter_locked("bytes", -row->stored_bytes);
    transaction.commit();
    erased = true;
  });
  return erased;
}

CacheStats SqliteCacheStore::stats() const {
  std::lock_guard lock(mutex_);
  CacheStats stats = stats_;
  const CacheStats memory = fallback_.memory().stats();
  stats.entries = memory.entries;
  stats.bytes = memory.bytes;
  attempt_locked("read the statistics", StoreMode::memory, [&] {
    Statement totals(db_, "SELECT count(*), coalesce(sum(stored_bytes), 0) FROM entries");
    if (totals.step()) {
      stats.entries = memory.entries + static_cast<std::uint64_t>(totals.integer(0));
      stats.bytes = memory.bytes + static_cast<std::uint64_t>(totals.integer(1));
    }
  });
  return stats;
}

std::vector<CacheEntryInfo> SqliteCacheStore::entries() const {
  std::lock_guard lock(mutex_);
  std::vector<CacheEntryInfo> out;
  attempt_locked("list the entries", StoreMode::memory, [&] {
    out.clear();
    Statement select(db_,
                     "SELECT id, key, substr(value, 1, 80), length(value), stored_bytes, last_use FROM entries "
                     "ORDER BY id");
    while (select.step()) {
      auto key = cache_codec::decode_key(select.blob(1));
      if (!std::holds_alternative<CacheKey>(key)) continue;  // verify() reports it
      CacheEntryInfo info;
      info.key = std::get<CacheKey>(key);
      info.id = cache_codec::hex(cache_codec::key_digest(info.key));
      auto header = cache_codec::peek_entry(select.blob(2), static_cast<std::uint64_t>(select.integer(3)));
      if (auto* h = std::get_if<cache_codec::EntryHeader>(&header)) info.value_bytes = h->value_size;
      info.stored_bytes = static_cast<std::uint64_t>(select.integer(4));
      info.last_use = Clock::time_point(std::chrono::milliseconds(select.integer(5)));
      info.location = path_.string() + " row " + std::to_string(select.integer(0));
      info.read_only = !fallback_.writable();
      out.push_back(std::move(info));
    }
  });
  if (!fallback_.writable()) {
    for (auto& info : fallback_.memory().entries()) out.push_back(std::move(info));
  }
  return out;
}

CacheVerifyReport SqliteCacheStore::verify() {
  std::lock_guard lock(mutex_);
  CacheVerifyReport report;
  const bool writable = fallback_.writable();
  set_aside_to_.clear();
  attempt_locked(
      "verify", StoreMode::memory,
      [&] {
        report = {};
        std::optional<Transaction> transaction;
        if (writable) transaction.emplace(db_);
        std::vector<std::pair<std::int64_t, std::string>> bad;
        {
          Statement select(db_, "SELECT id, key, value FROM entries ORDER BY id");
          while (select.step()) {
            ++report.checked;
            auto key = cache_codec::decode_key(select.blob(1));
            std::string problem;
            if (auto* reason = std::get_if<std::string>(&key)) {
              problem = *reason;
            } else {
              const auto digest = cache_codec::key_digest(std::get<CacheKey>(key));
              auto value = cache_codec::decode_entry(select.blob(2), &digest);
              if (auto* why = std::get_if<std::string>(&value)) problem = *why;
            }
            if (problem.empty()) ++report.good;
            else bad.push_back({select.integer(0), problem});
          }
        }
        for (const auto& [id, reason] : bad) {
          if (writable) {
            Statement remove(db_, "DELETE FROM entries WHERE id = ?1");
            remove.bind(1, id);
            remove.step();
          }
          report.problems.push_back({path_.string() + " row " + std::to_string(id), reason, writable});
        }
        if (!transaction) return;
        exec(db_,
             "INSERT INTO counters(name, value) VALUES('bytes', (SELECT coalesce(sum(stored_bytes), 0) FROM entries)) "
             "ON CONFLICT(name) DO UPDATE SET value = excluded.value");
        transaction->commit();
      },
      /*rethrow=*/true);
  if (!set_aside_to_.empty())
    report.problems.push_back({path_.string(), "the database was corrupt: moved aside to " + set_aside_to_, true});
  return report;
}

CachePruneReport SqliteCacheStore::prune(const CachePruneLimits& limits) {
  std::lock_guard lock(mutex_);
  if (!fallback_.writable()) fallback_.refuse("prune", path_.string());
  CachePruneReport report;
  attempt_locked("prune", StoreMode::read_only, [&] { report = evict_locked(limits.max_bytes, limits.max_age); },
                 /*rethrow=*/true);
  return report;
}

CachePruneReport SqliteCacheStore::evict_locked(std::optional<std::uint64_t> max_bytes,
                                                std::optional<std::chrono::seconds> max_age) {
  CachePruneReport report;
  Transaction transaction(db_);
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;  // id, bytes; least recently used first
  std::vector<std::int64_t> last_uses;
  std::uint64_t total = 0;
  {
    Statement select(db_, "SELECT id, stored_bytes, last_use FROM entries ORDER BY last_use, id");
    while (select.step()) {
      rows.push_back({select.integer(0), select.integer(1)});
      last_uses.push_back(select.integer(2));
      total += static_cast<std::uint64_t>(select.integer(1));
    }
  }
  const std::int64_t now = now_ms();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const bool too_old = max_age && now - last_uses[i] > std::chrono::duration_cast<std::chrono::milliseconds>(*max_age).count();
    const bool too_big = max_bytes && total > *max_bytes;
    if (!too_old && !too_big) {
      ++report.remaining_entries;
      continue;
    }
    Statement remove(db_, "DELETE FROM entries WHERE id = ?1");
    remove.bind(1, rows[i].first);
    remove.step();
    ++report.removed_entries;
    report.removed_bytes += static_cast<std::uint64_t>(rows[i].second);
    total -= static_cast<std::uint64_t>(rows[i].second);
  }
  report.remaining_bytes = total;
  add_counter_locked("evictions", static_cast<std::int64_t>(report.removed_entries));
  add_counter_locked("bytes", static_cast<std::int64_t>(total) - counter_locked("bytes"));
  Statement cleanup(db_, "INSERT INTO counters(name, value) VALUES('last_cleanup', ?1) "
                         "ON CONFLICT(name) DO UPDATE SET value = excluded.value");
  cleanup.bind(1, now / 1000);
  cleanup.step();
  transaction.commit();
  stats_.evictions += report.removed_entries;
  return report;
}

std::uint64_t SqliteCacheStore::clear() {
  std::lock_guard lock(mutex_);
  if (!fallback_.writable()) fallback_.refuse("clear", path_.string());
  std::uint64_t removed = 0;
  attempt_locked(
      "clear", StoreMode::read_only,
      [&] {
        Transaction transaction(db_);
        {
          Statement count(db_, "SELECT count(*) FROM entries");
          if (count.step()) removed = static_cast<std::uint64_t>(count.integer(0));
        }
        exec(db_, "DELETE FROM entries");
        add_counter_locked("bytes", -counter_locked("bytes"));
        transaction.commit();
      },
      /*rethrow=*/true);
  return removed;
}

std::vector<std::pair<std::string, std::string>> SqliteCacheStore::describe() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::string>> out = {
      {"database", path_.string()},
      {"max bytes", options_.max_bytes ? std::to_string(options_.max_bytes) : "unbounded"},
      {"max age", options_.max_age ? std::to_string(options_.max_age->count() / 86400) + " days" : "unbounded"},
      {"compression", options_.compression == cache_codec::Compression::zstd ? "zstd" : "none"},
  };
  attempt_locked("read the counters", StoreMode::memory, [&] {
    std::vector<std::pair<std::string, std::string>> counters;
    for (const char* name : {"hits", "misses", "stores", "evictions"})
      counters.push_back({std::string("lifetime ") + name, std::to_string(counter_locked(name))});
    out.insert(out.end(), counters.begin(), counters.end());
  });
  for (auto& line : fallback_.describe()) out.push_back(std::move(line));
  return out;
}

}  // namespace plexus::sqlite_cache
