// cache/disk and cache/sqlite with real files and real processes: many processes at once,
// a writer killed mid-write, damaged entries, forced hash collisions, LRU and age eviction,
// and (cache/disk) the root's permissions and read-only layers.
#include "persistent_test_support.hpp"

using Catch::Matchers::Contains;
using namespace std::chrono_literals;
using namespace plexus::cache_test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> persistent_stores = {"disk", "sqlite"};

}  // namespace

TEST_CASE("8 processes share one empty persistent cache without corruption or deadlock") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      const fs::path config = dir.write("cache.toml", config_text(name, where.toml()));
      std::vector<pid_t> pids;
      for (int p = 0; p < 8; ++p)
        pids.push_back(spawn_helper(config, {"hammer", "20"}, dir.path() / ("out" + std::to_string(p))));
      for (int p = 0; p < 8; ++p) {
        const int status = wait_for(pids[p], 180s);
        INFO("process " << p << ": " << read_text(dir.path() / ("out" + std::to_string(p))));
        CHECK(status == 0);  // -1: it did not finish (deadlock)
      }
      auto set = open_store(name, where.toml());
      plexus::CacheVerifyReport report = set->cache()->verify();
      CHECK(report.checked == 20);
      CHECK(report.good == 20);
      CHECK(report.problems.empty());
      CHECK(set->cache()->entries().size() == 20);
      if (name == "disk") CHECK(files_named(where.path, "").size() >= 40);
    }
  }
}

TEST_CASE("a writer killed mid-write leaves no entry a reader accepts and no lock that blocks") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      const fs::path slow = dir.write("slow.toml", config_text(name, where.toml("test_pause_before_publish_ms = 20000\n")));
      const fs::path fast = dir.write("fast.toml", config_text(name, where.toml()));
      const pid_t writer = spawn_helper(slow, {"store", "victim", "torn value"}, dir.path() / "writer");
      // Wait until the writer is inside its store (disk: its temporary file exists).
      const auto deadline = std::chrono::steady_clock::now() + 30s;
      while (std::chrono::steady_clock::now() < deadline) {
        if (name == "disk" ? !files_named(where.path, "").empty() && !files_named(where.path, ".lock").empty() &&
                                 [&] {
                                   for (const auto& f : files_named(where.path, ""))
                                     if (f.filename().string().starts_with(".tmp-")) return true;
                                   return false;
                                 }()
                           : read_text(dir.path() / "writer").find("storing") != std::string::npos) {
          break;
        }
        std::this_thread::sleep_for(10ms);
      }
      if (name == "sqlite") std::this_thread::sleep_for(500ms);  // into its transaction
      REQUIRE(::kill(writer, SIGKILL) == 0);
      CHECK(wait_for(writer, 30s) == 128 + SIGKILL);
      INFO(read_text(dir.path() / "writer"));

      // A reader in another process and one here: a miss.
      const pid_t reader = spawn_helper(fast, {"load", "victim"}, dir.path() / "reader");
      CHECK(wait_for(reader, 60s) == 0);
      CHECK(read_text(dir.path() / "reader") == "miss\n");
      {
        auto set = open_store(name, where.toml());
        CHECK_FALSE(set->cache()->load(helper_key("victim")));
        CHECK(set->cache()->entries().empty());
      }
      // A later writer is not blocked by anything the dead one held.
      const pid_t next = spawn_helper(fast, {"store", "victim", "good value"}, dir.path() / "next");
      CHECK(wait_for(next, 60s) == 0);
      const pid_t again = spawn_helper(fast, {"load", "victim"}, dir.path() / "again");
      CHECK(wait_for(again, 60s) == 0);
      CHECK(read_text(dir.path() / "again") == "hit good value\n");
      if (name == "disk") {
        // The dead writer's temporary file is gone after a cleanup (the first one at some
        // process's shutdown, or verify(), which reports it).
        auto set = open_store(name, where.toml());
        plexus::CacheVerifyReport report = set->cache()->verify();
        CHECK(report.good == 1);
        CHECK(report.problems.size() <= 1);
        for (const auto& problem : report.problems) CHECK_THAT(problem.reason, Contains("unfinished write"));
        for (const auto& file : files_named(where.path, ""))
          CHECK_FALSE(file.filename().string().starts_with(".tmp-"));
      }
    }
  }
}

TEST_CASE("cache/disk: a corrupted, truncated or hand-edited entry is removed and is a miss") {
  plexus::test::TempDir dir;
  const Location where = location("disk", dir);
  auto set = open_store("disk", where.toml());
  plexus::CacheStore& store = *set->cache();
  const std::string value(1000, 'v');
  auto fresh_entry = [&](const std::string& image) {
    store.store(key(image), bytes(value));
    REQUIRE(store.load(key(image)) == bytes(value));
    for (const auto& bin : files_named(where.path, ".bin"))
      if (read_text(bin).find(value) != std::string::npos) return bin;
    FAIL("no .bin file");
    return fs::path();
  };
  auto removed_after_miss = [&](const std::string& image, const fs::path& bin) {
    CHECK_FALSE(store.load(key(image)));
    CHECK_FALSE(fs::exists(bin));
    CHECK_FALSE(fs::exists(fs::path(bin).replace_extension(".src")));
    store.store(key(image), bytes("rebuilt"));  // and the key is usable again
    CHECK(store.load(key(image)) == bytes("rebuilt"));
  };
  SECTION("a flipped payload byte") {
    const fs::path bin = fresh_entry("flipped");
    std::string text = read_text(bin);
    text[text.size() - 10] ^= 1;
    write_bytes(bin, text);
    removed_after_miss("flipped", bin);
  }
  SECTION("a truncated value") {
    const fs::path bin = fresh_entry("truncated");
    fs::resize_file(bin, fs::file_size(bin) - 100);
    removed_after_miss("truncated", bin);
  }
  SECTION("a value cut inside its header") {
    const fs::path bin = fresh_entry("short");
    fs::resize_file(bin, 20);
    removed_after_miss("short", bin);
  }
  SECTION("a hand-edited key file") {
    const fs::path bin = fresh_entry("edited");
    const fs::path src = fs::path(bin).replace_extension(".src");
    std::string text = read_text(src);
    text[text.find("edited")] = 'E';
    write_bytes(src, text);
    removed_after_miss("edited", bin);
  }
  SECTION("another format version") {
    const fs::path bin = fresh_entry("version");
    std::string text = read_text(bin);
    text[8] = 99;
    write_bytes(bin, text);
    removed_after_miss("version", bin);
  }
  SECTION("a value moved under another key") {
    const fs::path bin_a = fresh_entry("a");
    store.store(key("b"), bytes("value b"));
    fs::path bin_b;
    for (const auto& bin : files_named(where.path, ".bin"))
      if (read_text(bin).find("value b") != std::string::npos) bin_b = bin;
    fs::copy_file(bin_a, bin_b, fs::copy_options::overwrite_existing);
    removed_after_miss("b", bin_b);
    CHECK(store.load(key("a")) == bytes(value));
  }
  SECTION("verify reports and removes damage") {
    const fs::path bin = fresh_entry("verified");
    store.store(key("intact"), bytes("intact"));
    std::string text = read_text(bin);
    text[100] ^= 0x40;
    write_bytes(bin, text);
    plexus::CacheVerifyReport report = store.verify();
    CHECK(report.checked == 2);
    CHECK(report.good == 1);
    REQUIRE(report.problems.size() == 1);
    CHECK(report.problems[0].removed);
    CHECK_THAT(report.problems[0].reason, Contains("checksum"));
    CHECK_FALSE(fs::exists(bin));
    CHECK(store.load(key("intact")) == bytes("intact"));
  }
}

TEST_CASE("cache/sqlite: a damaged row is removed and is a miss, a broken file is set aside") {
  plexus::test::TempDir dir;
  const Location where = location("sqlite", dir);
  SECTION("a flipped payload byte, a truncated value, a hand-edited key") {
    auto set = open_store("sqlite", where.toml());
    plexus::CacheStore& store = *set->cache();
    for (const char* image : {"flipped", "truncated", "edited", "intact"}) store.store(key(image), bytes(std::string(500, 'v')));
    sql(where.path, "UPDATE entries SET value = substr(value, 1, 200) || x'00' || substr(value, 202) "
                    "WHERE instr(key, 'flipped') > 0");
    sql(where.path, "UPDATE entries SET value = substr(value, 1, 300) WHERE instr(key, 'truncated') > 0");
    sql(where.path, "UPDATE entries SET key = replace(key, 'edited', 'EDITED') WHERE instr(key, 'edited') > 0");
    for (const char* image : {"flipped", "truncated", "edited"}) CHECK_FALSE(store.load(key(image)));
    CHECK(store.load(key("intact")) == bytes(std::string(500, 'v')));
    CHECK(store.entries().size() == 1);
    CHECK(store.stats().entries == 1);
  }
  SECTION("verify reports and removes damage") {
    auto set = open_store("sqlite", where.toml());
    plexus::CacheStore& store = *set->cache();
    store.store(key("bad"), bytes(std::string(500, 'v')));
    store.store(key("good"), bytes("good"));
    sql(where.path, "UPDATE entries SET value = substr(value, 1, 200) || x'01' || substr(value, 202) "
                    "WHERE instr(key, 'bad') > 0");
    plexus::CacheVerifyReport report = store.verify();
    CHECK(report.checked == 2);
    CHECK(report.good == 1);
    REQUIRE(report.problems.size() == 1);
    CHECK_THAT(report.problems[0].reason, Contains("checksum"));
    CHECK(store.load(key("good")) == bytes("good"));
  }
  SECTION("a file that is not a database") {
    fs::create_directories(where.path.parent_path());
    fs::permissions(where.path.parent_path(), fs::perms::owner_all, fs::perm_options::replace);
    write_bytes(where.path, std::string(4096, 'x'));
    auto set = open_store("sqlite", where.toml());
    CHECK_FALSE(set->cache()->load(key("k")));
    set->cache()->store(key("k"), bytes("v"));
    CHECK(set->cache()->load(key("k")) == bytes("v"));
    CHECK(files_named(where.path.parent_path(), "").size() >= 2);  // the broken file, set aside
  }
}

TEST_CASE("a forced hash collision is resolved through the full key") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      auto set = open_store(name, where.toml("test_fixed_hash = true\n"));
      plexus::CacheStore& store = *set->cache();
      for (const char* image : {"k0", "k1", "k2"}) store.store(key(image), bytes(std::string("value ") + image));
      for (const char* image : {"k0", "k1", "k2"}) CHECK(store.load(key(image)) == bytes(std::string("value ") + image));
      CHECK_FALSE(store.load(key("k3")));
      if (name == "disk") {
        const fs::path leaf = where.path / std::string(32, '0') / std::string(32, '0') / std::string(32, '0') /
                              std::string(32, '0');
        for (const char* file : {"0.src", "0.bin", "1.src", "1.bin", "2.src", "2.bin"}) CHECK(fs::exists(leaf / file));
        CHECK(read_text(leaf / "1.src").find("k1") != std::string::npos);
      }
      CHECK(store.erase(key("k1")));
      CHECK(store.load(key("k0")) == bytes("value k0"));
      CHECK(store.load(key("k2")) == bytes("value k2"));
      store.store(key("k3"), bytes("value k3"));
      store.store(key("k2"), bytes("value k2 again"));  // replaces in place
      CHECK(store.load(key("k3")) == bytes("value k3"));
      CHECK(store.load(key("k2")) == bytes("value k2 again"));
      CHECK(store.entries().size() == 3);
      CHECK(store.verify().good == 3);
    }
  }
}

TEST_CASE("eviction keeps the store under max_bytes, least recently used first") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      // Entries of ~10 KB (the value and ~200 bytes of header and key).
      auto set = open_store(name, where.toml("max_bytes = 35000\n"));
      plexus::CacheStore& store = *set->cache();
      const auto value = bytes(std::string(10000, 'x'));
      for (const char* image : {"k1", "k2", "k3"}) {
        store.store(key(image), value);
        std::this_thread::sleep_for(20ms);
      }
      REQUIRE(store.load(key("k1")));  // k2 is now the least recently used
      std::this_thread::sleep_for(20ms);
      CHECK(store.stats().evictions == 0);
      store.store(key("k4"), value);  // past 35000: down to 90%, i.e. without k2
      CHECK_FALSE(store.load(key("k2")));
      CHECK(store.load(key("k1")));
      CHECK(store.load(key("k3")));
      CHECK(store.load(key("k4")));
      CHECK(store.stats().evictions == 1);
      CHECK(store.stats().bytes <= 35000);
      for (int i = 5; i < 12; ++i) store.store(key("k" + std::to_string(i)), value);
      CHECK(store.stats().bytes <= 35000);
      CHECK(store.load(key("k11")));
    }
  }
}

TEST_CASE("age eviction at shutdown uses the store's last-use record, not atime") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      const auto forty_days_ago = std::chrono::system_clock::now() - std::chrono::hours(24 * 40);
      const std::int64_t old_seconds =
          std::chrono::duration_cast<std::chrono::seconds>(forty_days_ago.time_since_epoch()).count();
      {
        auto set = open_store(name, where.toml("max_age_days = 30\n" + where.every_shutdown()));
        set->cache()->store(key("old"), bytes("old"));
        set->cache()->store(key("new"), bytes("new"));
      }
      if (name == "disk") {
        // "old": last used 40 days ago, but read (atime) just now; "new": the reverse.
        for (const auto& bin : files_named(where.path, ".bin")) {
          const bool is_old = read_text(bin).find("old") != std::string::npos;
          const struct timespec now{0, UTIME_NOW}, past{old_seconds, 0};
          const struct timespec times[2] = {is_old ? now : past, is_old ? past : now};
          REQUIRE(::utimensat(AT_FDCWD, bin.c_str(), times, 0) == 0);
        }
      } else {
        sql(where.path, "UPDATE entries SET last_use = " + std::to_string(old_seconds * 1000) +
                            " WHERE instr(key, 'old') > 0");
      }
      {
        auto set = open_store(name, where.toml("max_age_days = 30\n" + where.every_shutdown()));
        REQUIRE(set->cache()->entries().size() == 2);
        auto entries = set->cache()->entries();
        for (const auto& entry : entries) {
          if (entry.key == key("old")) CHECK(entry.last_use < std::chrono::system_clock::now() - std::chrono::hours(24 * 39));
        }
      }  // shutdown: the age limit applies
      auto set = open_store(name, where.toml("max_age_days = 30\n" + where.every_shutdown()));
      CHECK_FALSE(set->cache()->load(key("old")));
      CHECK(set->cache()->load(key("new")) == bytes("new"));
      bool counted = false;
      for (const auto& [fact, value] : set->cache()->describe())
        if (fact == "lifetime evictions") counted = value == "1";
      CHECK(counted);
    }
  }
}

TEST_CASE("cache/disk: the root is created 0700 and marked, a root others may write is not used") {
  plexus::test::TempDir dir;
  {
    auto set = open_store("disk", "root = \"" + (dir.path() / "new" / "root").string() + "\"\n");
    CHECK((fs::status(dir.path() / "new" / "root").permissions() & fs::perms::all) == fs::perms::owner_all);
    CHECK_THAT(read_text(dir.path() / "new" / "root" / "CACHEDIR.TAG"),
               Contains("Signature: 8a477f597d28d172789f06886806bc55"));
    CHECK(read_text(dir.path() / "new" / "root" / ".plexus-cache") == "plexus cache/disk layout 2\n");
  }
  const fs::path shared = dir.path() / "shared";
  fs::create_directories(shared);
  // Refusing to write (or read) there stays; the program goes on with a memory cache.
  auto memory_only = [&](const std::string& name, const std::string& options, const std::string& why) {
    INFO(name << " " << options);
    LogCapture log;
    const auto before = snapshot(shared);
    {
      auto set = open_store(name, options);
      set->cache()->store(key("k"), bytes("v"));
      CHECK(set->cache()->load(key("k")) == bytes("v"));
      CHECK_THROWS_WITH(set->cache()->clear(), Contains(why));
    }
    CHECK(snapshot(shared) == before);
    CHECK(log.count(why) == 1);  // one warning
    CHECK_THAT(log.text(), Contains("chmod go-w") && Contains("in-memory cache"));
  };
  fs::permissions(shared, fs::perms::owner_all | fs::perms::group_all, fs::perm_options::replace);
  memory_only("disk", "root = \"" + shared.string() + "\"\n", "writable by its group");
  fs::permissions(shared, fs::perms::owner_all | fs::perms::others_all, fs::perm_options::replace);
  memory_only("disk", "root = \"" + shared.string() + "\"\n", "writable by others");
  memory_only("sqlite", "path = \"" + (shared / "c.sqlite").string() + "\"\n", "writable by others");
  plexus::test::ScopedEnv cache_dir("PLEXUS_CACHE_DIR", (dir.path() / "from-env").string());
  auto set = open_store("disk", "");
  set->cache()->store(key("k"), bytes("v"));
  CHECK(fs::is_directory(dir.path() / "from-env"));
  CHECK(files_named(dir.path() / "from-env", ".bin").size() == 1);
}

TEST_CASE("cache/disk: a read-only layer is consulted on a miss and never written") {
  plexus::test::TempDir dir;
  const fs::path system = dir.path() / "system";
  {
    auto set = open_store("disk", "root = \"" + system.string() + "\"\n");
    set->cache()->store(key("shared"), bytes("from the system layer"));
    set->cache()->store(key("damaged"), bytes(std::string(300, 'd')));
    set->cache()->store(key("both"), bytes("system version"));
  }
  for (const auto& bin : files_named(system, ".bin")) {
    std::string text = read_text(bin);
    if (text.find("ddd") != std::string::npos) {
      text[150] ^= 1;
      write_bytes(bin, text);
    }
  }
  const auto before = snapshot(system);
  const std::string options = "root = \"" + (dir.path() / "user").string() + "\"\nread_only_layers = [\"" +
                              system.string() + "\"]\n";
  {
    auto set = open_store("disk", options);
    plexus::CacheStore& store = *set->cache();
    store.store(key("both"), bytes("user version"));
    CHECK(store.load(key("shared")) == bytes("from the system layer"));
    CHECK(store.load(key("both")) == bytes("user version"));
    CHECK_FALSE(store.load(key("damaged")));  // reported, not removed
    CHECK_FALSE(store.load(key("absent")));
    store.store(key("mine"), bytes("mine"));
    auto entries = store.entries();
    CHECK(std::count_if(entries.begin(), entries.end(), [](const auto& e) { return e.read_only; }) == 3);
    plexus::CacheVerifyReport report = store.verify();
    bool layer_problem = false;
    for (const auto& problem : report.problems) layer_problem |= !problem.removed && problem.location.starts_with(system.string());
    CHECK(layer_problem);
    store.prune({0, std::chrono::seconds(0)});
    store.clear();
    CHECK(store.load(key("shared")) == bytes("from the system layer"));
  }
  CHECK(snapshot(system) == before);
}

TEST_CASE("compression = zstd stores less and still verifies every entry") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      auto set = open_store(name, where.toml("compression = \"zstd\"\n"));
      plexus::CacheStore& store = *set->cache();
      std::string text;
      for (int i = 0; text.size() < 100000; ++i) text += "kernel line " + std::to_string(i % 50) + ";\n";
      store.store(key("compressible"), bytes(text));
      store.store(key("tiny"), bytes("x"));  // not worth compressing: kept as it is
      CHECK(store.load(key("compressible")) == bytes(text));
      CHECK(store.load(key("tiny")) == bytes("x"));
      for (const auto& entry : store.entries()) {
        if (entry.key != key("compressible")) continue;
        CHECK(entry.value_bytes == text.size());
        CHECK(entry.stored_bytes < text.size() / 10);
      }
      CHECK(store.verify().good == 2);
      CHECK_THROWS_WITH(open_store(name, where.toml("compression = \"lz4\"\n")),
                        Contains("compression") && Contains("\"none\" or \"zstd\""));
      if (name == "disk") {  // a damaged compressed payload is caught by the checksum first
        for (const auto& bin : files_named(where.path, ".bin")) {
          std::string content = read_text(bin);
          if (content.size() < 200) continue;
          content[content.size() / 2] ^= 0x10;
          write_bytes(bin, content);
        }
        CHECK_FALSE(store.load(key("compressible")));
        CHECK(store.load(key("tiny")) == bytes("x"));
      }
    }
  }
}
