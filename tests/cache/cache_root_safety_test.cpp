// cache/disk never loses data it did not write: a root it did not create that holds other
// files (PLEXUS_CACHE_DIR=$HOME) is never written, evicted or cleared, even where user
// files have names like entries; in its own root it removes only files it recognises by
// content. An unmarked root of entries (earlier layout) is adopted; another layout is not
// used. Option ranges (max_age_days) are checked with file:line:col.
#include "persistent_test_support.hpp"

using Catch::Matchers::Contains;
using namespace plexus::cache_test;

namespace {

const std::string hex_a(32, 'a'), hex_b(32, 'b');

// A user's directory tree: ordinary files, empty directories, and files named like cache
// entries (four hash-named levels down, <n>.bin, <n>.src, .tmp-*) that are not entries.
void make_user_tree(const fs::path& home) {
  fs::create_directories(home / "Documents" / "empty");
  fs::create_directories(home / "empty-top");
  write_bytes(home / "notes.txt", "my notes");
  write_bytes(home / ".bashrc", "alias ll='ls -l'");
  const fs::path leaf = home / hex_a / hex_a / hex_a / hex_a;
  fs::create_directories(leaf);
  fs::create_directories(home / hex_b / hex_b / hex_b / hex_b);  // empty, entry-shaped
  write_bytes(leaf / "0.bin", "a user's file that happens to be called 0.bin");
  write_bytes(leaf / "0.src", "and 0.src");
  write_bytes(leaf / "7.bin", "a value without a key");
  write_bytes(leaf / ".tmp-abcdef", "an editor's temporary file");
  write_bytes(leaf / ".lock", "");
  write_bytes(home / ".stats", "bytes 12\n");
}

std::string disk_options(const fs::path& root, const std::string& extra = "") {
  // Every shutdown applies the age limit: the cleanup that deleted user files.
  return "root = \"" + root.string() + "\"\ncleanup_interval_minutes = 0\nmax_age_days = 1\n" + extra;
}

}  // namespace

TEST_CASE("cache/disk: a root it did not create that holds user files is never written or cleaned") {
  plexus::test::TempDir dir;
  const fs::path home = dir.path() / "home";
  make_user_tree(home);
  // Age every file, so an age eviction would take them all.
  for (const auto& entry : fs::recursive_directory_iterator(home))
    fs::last_write_time(entry.path(), fs::file_time_type::clock::now() - std::chrono::hours(24 * 400));
  const auto before = snapshot(home);
  LogCapture log;
  {
    auto set = open_store("disk", disk_options(home));
    plexus::CacheStore& store = *set->cache();
    store.store(key("k"), bytes("value"));  // kept in memory: the program goes on
    CHECK(store.load(key("k")) == bytes("value"));
    CHECK(store.stats().entries == 1);
    CHECK_NOTHROW(store.entries());
    CHECK_NOTHROW(store.verify());
    CHECK_THROWS_WITH(store.clear(), Contains("not created by Plexus") && Contains("cannot clear"));
    CHECK_THROWS_WITH(store.prune({0, std::chrono::seconds(0)}), Contains("cannot prune"));
    bool said = false;
    for (const auto& [fact, value] : store.describe()) said |= fact == "mode" && value.starts_with("read-only");
    CHECK(said);
  }
  CHECK(snapshot(home) == before);  // nothing removed, added or touched
  CHECK(log.count("not created by Plexus and holds other files") == 1);
  CHECK_THAT(log.text(), Contains(home.string()) && Contains("CACHEDIR.TAG"));
}

TEST_CASE("cache/disk: in its own root it removes only what it recognises by content") {
  plexus::test::TempDir dir;
  const fs::path root = dir.path() / "cache";
  {
    auto set = open_store("disk", disk_options(root));
    set->cache()->store(key("one"), bytes("1"));
    set->cache()->store(key("two"), bytes("2"));
  }
  // Files a user (or another program) put into the tree, with names of the layout.
  const fs::path leaf = root / hex_a / hex_a / hex_a / hex_a;
  fs::create_directories(leaf);
  write_bytes(leaf / "0.bin", "not an entry");
  write_bytes(leaf / "0.src", "not a key");
  write_bytes(leaf / ".tmp-foobar", "not an unfinished write of the store");
  write_bytes(root / "README", "mine");
  fs::create_directories(root / "my-dir");
  const auto foreign_files = std::vector<fs::path>{leaf / "0.bin", leaf / "0.src", leaf / ".tmp-foobar",
                                                   root / "README", root / "my-dir"};
  {
    auto set = open_store("disk", disk_options(root));
    plexus::CacheStore& store = *set->cache();
    CHECK(store.load(key("one")) == bytes("1"));  // still its own root (marked)
    CHECK(store.clear() == 2);
    store.store(key("three"), bytes("3"));
    store.prune({0, std::chrono::seconds(0)});
    store.verify();
  }
  for (const auto& path : foreign_files) {
    INFO(path);
    CHECK(fs::exists(fs::symlink_status(path)));
  }
  CHECK(files_named(root, ".bin") == std::vector<fs::path>{leaf / "0.bin"});
}

TEST_CASE("cache/disk: an unmarked root of entries is adopted, an empty one too, another layout is not used") {
  plexus::test::TempDir dir;
  const fs::path root = dir.path() / "cache";
  {
    auto set = open_store("disk", "root = \"" + root.string() + "\"\n");
    set->cache()->store(key("old"), bytes("from layout 1"));
  }
  fs::remove(root / ".plexus-cache");  // what earlier versions left: entries, no marks
  fs::remove(root / "CACHEDIR.TAG");
  {
    auto set = open_store("disk", "root = \"" + root.string() + "\"\n");
    CHECK(set->cache()->load(key("old")) == bytes("from layout 1"));
    CHECK(fs::exists(root / ".plexus-cache"));
    CHECK(set->cache()->clear() == 1);
  }
  const fs::path empty = dir.path() / "empty";
  fs::create_directories(empty);
  fs::permissions(empty, fs::perms::owner_all, fs::perm_options::replace);
  {
    auto set = open_store("disk", "root = \"" + empty.string() + "\"\n");
    set->cache()->store(key("k"), bytes("v"));
    CHECK(fs::exists(empty / "CACHEDIR.TAG"));
    CHECK(files_named(empty, ".bin").size() == 1);
  }
  write_bytes(root / ".plexus-cache", "plexus cache/disk layout 9\n");
  const auto before = snapshot(root);
  LogCapture log;
  {
    auto set = open_store("disk", "root = \"" + root.string() + "\"\n");
    set->cache()->store(key("k"), bytes("v"));
    CHECK(set->cache()->load(key("k")) == bytes("v"));
  }
  CHECK(snapshot(root) == before);
  CHECK_THAT(log.text(), Contains("another layout") && Contains("layout 9"));
}

TEST_CASE("cache stores: max_age_days and the other numeric options have a checked range") {
  plexus::test::TempDir dir;
  for (const std::string name : {"disk", "sqlite"}) {
    const Location where = location(name, dir);
    CHECK_THROWS_WITH(open_store(name, where.toml("max_age_days = 1000000\n")),
                      Contains("persistent-cache-test.toml:") && Contains("max_age_days") &&
                          Contains("between 0 and 36500 days") && Contains("1000000"));
    CHECK_THROWS_WITH(open_store(name, where.toml("compression_level = 99\n")), Contains("between 1 and 22"));
    CHECK_THROWS_WITH(open_store(name, where.toml("max_bytes = -1\n")), Contains("0 or positive"));
  }
  CHECK_THROWS_WITH(open_store("disk", location("disk", dir).toml("cleanup_interval_minutes = 99999999999\n")),
                    Contains("cleanup_interval_minutes") && Contains("525600"));
  CHECK_THROWS_WITH(open_store("sqlite", location("sqlite", dir).toml("busy_timeout_ms = 9999999999\n")),
                    Contains("busy_timeout_ms") && Contains("3600000"));
  // The largest age limit keeps a fresh entry at every shutdown (it used to overflow and
  // evict everything).
  for (const std::string name : {"disk", "sqlite"}) {
    INFO(name);
    const Location where = location(name, dir);
    {
      auto set = open_store(name, where.toml("max_age_days = 36500\n" + where.every_shutdown()));
      set->cache()->store(key("kept"), bytes("v"));
    }
    auto set = open_store(name, where.toml("max_age_days = 36500\n"));
    CHECK(set->cache()->load(key("kept")) == bytes("v"));
  }
}
