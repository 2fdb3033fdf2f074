// Faults of the persistent stores' own files, and locations they cannot use. None of them
// stops the program: a directory, FIFO or symbolic link in place of an entry is a damaged
// entry (no hang: every case runs under an alarm); a killed writer's temporary file goes
// with the next store into its directory; a corrupted SQLite database is set aside and
// rebuilt; an uncreatable, unwritable or unsafe location gives one warning and a cache in
// memory (or the location read-only).
//
// How the tests make a location fail when they run as root (root ignores permission bits):
// - uncreatable: a path below a regular file (mkdir fails with ENOTDIR for anyone);
// - unwritable: a child process with RLIMIT_FSIZE = 0 (every write of data fails with
//   EFBIG, root included; SIGXFSZ ignored), and, when not root, also a chmod a-w directory;
// - unsafe: a directory others may write, or below one without the sticky bit.
#include <sys/resource.h>

#include <functional>

#include "persistent_test_support.hpp"

using Catch::Matchers::Contains;
using namespace plexus::cache_test;

namespace {

const std::vector<std::string> persistent_stores = {"disk", "sqlite"};

fs::path only_file(const fs::path& root, const std::string& suffix) {
  auto files = files_named(root, suffix);
  REQUIRE(files.size() == 1);
  return files[0];
}

// Runs `body` in a child process whose writes of data to files fail (RLIMIT_FSIZE = 0);
// returns its exit status (the body returns its number of failures) and its output (through
// a pipe: the child cannot write a file).
std::pair<int, std::string> with_unwritable_files(const std::function<int()>& body) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe_fds[0]);
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::signal(SIGXFSZ, SIG_IGN);
    const struct rlimit none = {0, 0};
    ::setrlimit(RLIMIT_FSIZE, &none);
    int failures = 0;
    try {
      failures = body();
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "exception: %s\n", failure.what());
      failures = 100;
    }
    std::fflush(nullptr);
    ::_exit(failures > 100 ? 100 : failures);
  }
  ::close(pipe_fds[1]);
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) output.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  return {wait_for(pid, 120s), output};
}

}  // namespace

TEST_CASE("cache/disk: a directory, FIFO or symbolic link in place of an entry is a miss, never a hang") {
  HangGuard guard(60);
  plexus::test::TempDir dir;
  const fs::path root = dir.path() / "cache";
  const fs::path fifo_target = dir.path() / "elsewhere.fifo";
  REQUIRE(::mkfifo(fifo_target.c_str(), 0600) == 0);
  struct Case {
    const char* what;
    const char* file;  // ".bin" or ".src"
    std::function<void(const fs::path&)> replace;
  };
  const std::vector<Case> cases = {
      {"a FIFO", ".bin", [](const fs::path& p) { REQUIRE(::mkfifo(p.c_str(), 0600) == 0); }},
      {"a FIFO", ".src", [](const fs::path& p) { REQUIRE(::mkfifo(p.c_str(), 0600) == 0); }},
      {"a directory", ".bin", [](const fs::path& p) { fs::create_directory(p); }},
      {"a directory", ".src", [](const fs::path& p) { fs::create_directories(p / "inside"); }},
      {"a symbolic link", ".bin", [&](const fs::path& p) { fs::create_symlink(fifo_target, p); }},
  };
  for (const auto& c : cases) {
    INFO(c.what << " in place of " << c.file);
    fs::remove_all(root);
    auto set = open_store("disk", "root = \"" + root.string() + "\"\n");
    plexus::CacheStore& store = *set->cache();
    store.store(key("k"), bytes("value"));
    const fs::path victim = only_file(root, c.file);
    fs::remove(victim);
    c.replace(victim);
    CHECK_FALSE(store.load(key("k")));
    CHECK_NOTHROW(store.entries());
    CHECK_NOTHROW(store.stats());
    store.store(key("k"), bytes("again"));  // the store goes on
    CHECK(store.load(key("k")) == bytes("again"));
    // verify sees it too (when load left it: a non-empty directory is not the store's to remove)
    if (fs::symlink_status(victim).type() != fs::file_type::regular &&
        fs::symlink_status(victim).type() != fs::file_type::not_found) {
      const plexus::CacheVerifyReport report = store.verify();
      bool named = false;
      for (const auto& problem : report.problems) named |= problem.location == victim.string();
      CHECK(named);
    }
    CHECK(store.verify().good >= 1);
  }
}

TEST_CASE("cache/disk: the next writer into a directory removes a killed writer's temporary file") {
  plexus::test::TempDir dir;
  const Location where = location("disk", dir);
  const fs::path slow = dir.write("slow.toml", config_text("disk", where.toml("test_pause_before_publish_ms = 20000\n")));
  // No age limit: no cleanup at shutdown removes the temporary file instead of the writer.
  const fs::path fast = dir.write("fast.toml", config_text("disk", where.toml("max_age_days = 0\n")));
  open_store("disk", where.toml());  // the root exists and is marked before the writer starts
  auto temporaries = [&] {
    std::vector<fs::path> out;
    for (const auto& file : files_named(where.path, ""))
      if (file.filename().string().starts_with(".tmp-") && file.parent_path() != where.path) out.push_back(file);
    return out;
  };
  const pid_t writer = spawn_helper(slow, {"store", "victim", "torn value"}, dir.path() / "writer");
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (temporaries().empty() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
  REQUIRE(::kill(writer, SIGKILL) == 0);
  wait_for(writer, 30s);
  REQUIRE_FALSE(temporaries().empty());
  const pid_t next = spawn_helper(fast, {"store", "victim", "good value"}, dir.path() / "next");
  CHECK(wait_for(next, 60s) == 0);
  CHECK(temporaries().empty());  // no verify or eviction ran
}

TEST_CASE("cache stores: a directory above the cache that others may write without the sticky bit") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const fs::path open_dir = dir.path() / "open";
      fs::create_directories(open_dir);
      fs::permissions(open_dir, fs::perms::all, fs::perm_options::replace);  // 0777, no sticky bit
      const fs::path cache = open_dir / "cache";
      const std::string options = name == "disk" ? "root = \"" + cache.string() + "\"\n"
                                                 : "path = \"" + (cache / "c.sqlite").string() + "\"\n";
      {
        LogCapture log;
        auto set = open_store(name, options);
        set->cache()->store(key("k"), bytes("v"));
        CHECK(set->cache()->load(key("k")) == bytes("v"));
        CHECK_FALSE(fs::exists(cache));
        CHECK_THAT(log.text(), Contains("without the sticky bit") && Contains(open_dir.string()));
      }
      fs::permissions(open_dir, fs::perms::all | fs::perms::sticky_bit, fs::perm_options::replace);  // like /tmp
      auto set = open_store(name, options);
      set->cache()->store(key("k"), bytes("v"));
      CHECK(fs::exists(cache));
    }
  }
}

TEST_CASE("cache stores: an uncreatable cache directory gives one warning and a cache in memory") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const fs::path file = dir.write("a-file", "not a directory");
      const fs::path cache = file / "cache";  // below a regular file: ENOTDIR, for root too
      const std::string options = name == "disk" ? "root = \"" + cache.string() + "\"\n"
                                                 : "path = \"" + (cache / "c.sqlite").string() + "\"\n";
      LogCapture log;
      for (int run = 0; run < 2; ++run) {
        auto set = open_store(name, options);
        plexus::CacheStore& store = *set->cache();
        CHECK_FALSE(store.load(key("k")));
        store.store(key("k"), bytes("v"));
        CHECK(store.load(key("k")) == bytes("v"));
        CHECK(store.entries().size() == 1);
        CHECK_THROWS_WITH(store.clear(), Contains("cannot clear"));
      }
      CHECK(log.count("cannot create") == 1);  // once per process, however many stores
      CHECK_THAT(log.text(), Contains("in-memory cache") && Contains("PLEXUS_CACHE_DIR"));
    }
  }
}

TEST_CASE("cache stores: a location that cannot be written is read, and new entries stay in memory") {
  for (const auto& name : persistent_stores) {
    DYNAMIC_SECTION("cache/" << name) {
      plexus::test::TempDir dir;
      const Location where = location(name, dir);
      {
        auto set = open_store(name, where.toml());
        set->cache()->store(key("old"), bytes("stored before"));
      }
      const auto [status, output] = with_unwritable_files([&] {
        int failures = 0;
        auto set = open_store(name, where.toml());
        plexus::CacheStore& store = *set->cache();
        failures += store.load(key("old")) != bytes("stored before");
        store.store(key("new"), bytes("kept in memory"));
        failures += store.load(key("new")) != bytes("kept in memory");
        failures += store.entries().size() != 2;
        store.describe();
        store.verify();
        return failures;
      });
      INFO(output);
      CHECK(status == 0);
      CHECK_THAT(output, Contains("new entries kept in memory") || Contains("in-memory cache"));
      for (const auto& file : files_named(where.path.parent_path(), ""))
        CHECK_FALSE(file.filename().string().starts_with(".tmp-"));
      if (::geteuid() != 0 && name == "disk") {  // permission bits work for other users
        fs::permissions(where.path, fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
        auto set = open_store(name, where.toml());
        CHECK(set->cache()->load(key("old")) == bytes("stored before"));
        set->cache()->store(key("new"), bytes("kept in memory"));
        CHECK(set->cache()->load(key("new")) == bytes("kept in memory"));
        fs::permissions(where.path, fs::perms::owner_all, fs::perm_options::replace);
      }
    }
  }
}

TEST_CASE("cache/sqlite: a database corrupted while in use is set aside and rebuilt, with a warning") {
  plexus::test::TempDir dir;
  const Location where = location("sqlite", dir);
  {
    auto set = open_store("sqlite", where.toml());
    for (int i = 0; i < 200; ++i) set->cache()->store(key("k" + std::to_string(i)), bytes(std::string(3000, 'v')));
  }
  // Garbage over every page but the first: the header still says "SQLite format 3", so the
  // database opens, and the first statement that reads a page finds it malformed.
  std::string content = read_text(where.path);
  REQUIRE(content.size() > 100000);
  for (std::size_t at = 4096; at < content.size(); ++at) content[at] = static_cast<char>(at * 7919 % 251);
  write_bytes(where.path, content);
  LogCapture log;
  auto set = open_store("sqlite", where.toml());
  plexus::CacheStore& store = *set->cache();
  CHECK_NOTHROW(store.load(key("k1")));
  store.store(key("fresh"), bytes("after the rebuild"));
  CHECK(store.load(key("fresh")) == bytes("after the rebuild"));
  CHECK(store.verify().problems.empty());
  CHECK_THAT(log.text(), Contains("corrupt") && Contains("moved aside"));
  bool set_aside = false;
  for (const auto& file : files_named(where.path.parent_path(), ""))
    set_aside |= file.filename().string().find(".corrupt-") != std::string::npos;
  CHECK(set_aside);
}
