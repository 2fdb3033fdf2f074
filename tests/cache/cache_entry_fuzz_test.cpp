// A bounded fuzz of the persistent stores' entry files: mutated headers, payloads and key
// records (bit flips, random bytes, header fields set to extreme values, truncation,
// extension, empty files) under cache/disk (uncompressed and zstd) and cache/sqlite. Each
// load must return the entry's exact value or a miss, never another value, an exception, a
// crash or a hang; verify() must run through. Deterministic (seed PLEXUS_FUZZ_SEED, default
// 1) and bounded: PLEXUS_FUZZ_SECONDS (default 8) per store, at most 4000 mutations, at least
// 64 (disk) or 24 (sqlite) whatever the time: the checks of the run counts do not race.
#include <cstdlib>
#include <iostream>
#include <random>

#include "persistent_test_support.hpp"

using namespace plexus::cache_test;

namespace {

// Whether to run another mutation: always the first `minimum` (what the test checks of the
// runs must not depend on the machine's speed or load), then while the time lasts, up to
// 4000 in all.
struct Budget {
  std::chrono::steady_clock::time_point end;
  int minimum;
  int taken = 0;
  explicit Budget(int minimum_runs) : minimum(minimum_runs) {
    const char* seconds = std::getenv("PLEXUS_FUZZ_SECONDS");
    end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds ? std::atoi(seconds) : 8);
  }
  bool next() {
    ++taken;
    return taken <= minimum || (taken <= 4000 && std::chrono::steady_clock::now() < end);
  }
};

std::mt19937_64 seeded() {
  const char* seed = std::getenv("PLEXUS_FUZZ_SEED");
  return std::mt19937_64(seed ? std::strtoull(seed, nullptr, 10) : 1);
}

// The values stored: empty, tiny, text that compresses, random bytes.
std::vector<std::pair<plexus::CacheKey, std::vector<std::byte>>> corpus(std::mt19937_64& random) {
  std::string text;
  for (int i = 0; text.size() < 20000; ++i) text += "line " + std::to_string(i % 37) + " of a kernel\n";
  std::string noise(5000, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  return {{key("empty"), {}}, {key("tiny"), bytes("x")}, {key("text"), bytes(text)}, {key("noise"), bytes(noise)}};
}

std::string mutate(std::string data, std::mt19937_64& random) {
  auto pick = [&](std::size_t n) { return n ? static_cast<std::size_t>(random() % n) : 0; };
  auto put64 = [&](std::size_t at, std::uint64_t v) {
    for (int i = 0; i < 8 && at + i < data.size(); ++i) data[at + i] = static_cast<char>(v >> (8 * i));
  };
  const std::uint64_t extremes[] = {0, 1, 79, 80, 81, ~0ull, 1ull << 63, 1ull << 40, (1ull << 40) + 1, 0xffffffffull};
  switch (random() % 9) {
    case 0:  // flip one bit
      if (!data.empty()) data[pick(data.size())] ^= static_cast<char>(1 << (random() % 8));
      break;
    case 1:  // a few random bytes anywhere
      for (int i = 0; i < 4 && !data.empty(); ++i) data[pick(data.size())] = static_cast<char>(random());
      break;
    case 2:  // a random byte in the header
      if (!data.empty()) data[pick(std::min<std::size_t>(data.size(), 80))] = static_cast<char>(random());
      break;
    case 3:  // version, flags or a size field of the entry header set to an extreme value
      put64(std::size_t{8} + 4 * (random() % 2), extremes[pick(std::size(extremes))]);
      put64(std::size_t{16} + 8 * (random() % 2), extremes[pick(std::size(extremes))]);
      break;
    case 4:  // a key field's length (key record: first length at 12)
      put64(12, extremes[pick(std::size(extremes))]);
      break;
    case 5:  // truncated
      data.resize(pick(data.size() + 1));
      break;
    case 6:  // extended
      for (std::size_t i = 0, n = 1 + pick(300); i < n; ++i) data.push_back(static_cast<char>(random()));
      break;
    case 7:  // empty
      data.clear();
      break;
    default:  // random bytes of the same size
      for (char& c : data) c = static_cast<char>(random());
      break;
  }
  return data;
}

}  // namespace

TEST_CASE("fuzz: mutated cache/disk entry files are a miss or the exact value", "[fuzz]") {
  for (const std::string compression : {"none", "zstd"}) {
    DYNAMIC_SECTION("compression " << compression) {
      HangGuard guard(120);
      auto random = seeded();
      plexus::test::TempDir dir;
      const fs::path root = dir.path() / "cache";
      auto set = open_store("disk", "root = \"" + root.string() + "\"\ncompression = \"" + compression + "\"\n");
      plexus::CacheStore& store = *set->cache();
      const auto values = corpus(random);
      for (const auto& [k, v] : values) store.store(k, v);
      std::map<fs::path, std::string> originals;
      for (const auto& suffix : {".bin", ".src"})
        for (const auto& file : files_named(root, suffix)) originals[file] = read_text(file);
      REQUIRE(originals.size() == 2 * values.size());
      std::vector<fs::path> files;
      for (const auto& [path, content] : originals) files.push_back(path);
      Budget budget(64);
      int runs = 0, misses = 0;
      while (budget.next()) {
        ++runs;
        const fs::path& victim = files[random() % files.size()];
        write_bytes(victim, mutate(originals[victim], random));
        for (const auto& [k, v] : values) {
          std::optional<std::vector<std::byte>> loaded;
          REQUIRE_NOTHROW(loaded = store.load(k));
          if (loaded) REQUIRE(*loaded == v);
          else ++misses;
        }
        if (runs % 64 == 0) REQUIRE_NOTHROW(store.verify());
        for (const char* suffix : {".bin", ".src"}) {  // the entry back to its stored state
          const fs::path path = fs::path(victim).replace_extension(suffix);
          fs::create_directories(path.parent_path());
          write_bytes(path, originals[path]);
        }
      }
      std::cout << "fuzz cache/disk (" << compression << "): " << runs << " mutations, " << misses << " misses\n";
      CHECK(runs > 50);
      CHECK(misses > 0);
      CHECK(store.verify().problems.empty());
    }
  }
}

TEST_CASE("fuzz: mutated cache/sqlite rows are a miss or the exact value", "[fuzz]") {
  HangGuard guard(120);
  auto random = seeded();
  plexus::test::TempDir dir;
  const Location where = location("sqlite", dir);
  auto set = open_store("sqlite", where.toml("compression = \"zstd\"\n"));
  plexus::CacheStore& store = *set->cache();
  const auto values = corpus(random);
  Budget budget(24);
  int runs = 0, misses = 0;
  auto to_hex = [](const std::string& data) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : data) out += {digits[c >> 4], digits[c & 15]};
    return out;
  };
  while (budget.next() && runs < 400) {  // each round rewrites rows through SQL: slower
    ++runs;
    for (const auto& [k, v] : values) store.store(k, v);
    const auto& [victim, value] = values[random() % values.size()];
    const char* column = random() % 2 ? "value" : "key";
    std::string original;
    {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(where.path.c_str(), &db) == SQLITE_OK);
      sqlite3_stmt* select = nullptr;
      const std::string query = std::string("SELECT ") + column + " FROM entries WHERE instr(key, '" + victim.image + "') > 0";
      REQUIRE(sqlite3_prepare_v2(db, query.c_str(), -1, &select, nullptr) == SQLITE_OK);
      if (sqlite3_step(select) == SQLITE_ROW)
        original.assign(static_cast<const char*>(sqlite3_column_blob(select, 0)), sqlite3_column_bytes(select, 0));
      sqlite3_finalize(select);
      sqlite3_close(db);
    }
    sql(where.path, std::string("UPDATE entries SET ") + column + " = x'" + to_hex(mutate(original, random)) +
                        "' WHERE instr(key, '" + victim.image + "') > 0");
    for (const auto& [k, v] : values) {
      std::optional<std::vector<std::byte>> loaded;
      REQUIRE_NOTHROW(loaded = store.load(k));
      if (loaded) REQUIRE(*loaded == v);
      else ++misses;
    }
  }
  std::cout << "fuzz cache/sqlite: " << runs << " mutations, " << misses << " misses\n";
  CHECK(runs > 20);
  CHECK_NOTHROW(store.verify());
}
