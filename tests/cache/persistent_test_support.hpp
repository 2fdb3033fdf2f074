// Helpers of the cache/disk and cache/sqlite tests (real files, real processes): keys and
// values, a store opened from TOML options, plexus_cache_helper processes with a deadline,
// file listings and snapshots, SQL from outside the store, and warnings captured from the
// plexus logger. Not thread-safe (the log capture changes the shared logger's sinks).
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "plexus/cache_store.hpp"
#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "log_capture.hpp"
#include "test_support.hpp"

namespace plexus::cache_test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

inline std::vector<std::byte> bytes(const std::string& text) {
  std::vector<std::byte> out;
  for (char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}
inline plexus::CacheKey key(const std::string& image) { return {"device A", image, "", "-O2"}; }
inline plexus::CacheKey helper_key(const std::string& name) { return {"helper device", name, "", "-O2"}; }

// One persistent store's location and options as TOML lines of [cache.<name>].
struct Location {
  std::string name;
  fs::path path;  // disk: the root; sqlite: the database file
  std::string toml(const std::string& extra = "") const {
    return (name == "disk" ? "root = \"" : "path = \"") + path.string() + "\"\n" + extra;
  }
  // The age limit at every shutdown (cache/disk checks it once an hour by default).
  std::string every_shutdown() const {
    return name == "disk" ? "cleanup_interval_minutes = 0\n" : "";
  }
};

inline Location location(const std::string& name, const plexus::test::TempDir& dir) {
  return {name, name == "disk" ? dir.path() / "cache" : dir.path() / "cache" / "cache.sqlite"};
}

inline std::string config_text(const std::string& name, const std::string& options) {
  return "[cache]\nuse = \"" + name + "\"\n[cache." + name + "]\n" + options;
}

inline std::unique_ptr<plexus::ComponentSet> open_store(const std::string& name, const std::string& options) {
  static const plexus::PluginRegistry registry({{plexus::test::build_plugin_dir(), "build tree"}});
  return std::make_unique<plexus::ComponentSet>(
      plexus::Config::from_string(config_text(name, options), "persistent-cache-test.toml"), registry);
}

// Runs plexus_cache_helper with a config file; returns the pid.
inline pid_t spawn_helper(const fs::path& config, std::vector<std::string> args, const fs::path& output) {
  args.insert(args.begin(), {PLEXUS_CACHE_HELPER, config.string()});
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// The exit status, or -1 after killing a process that did not finish in time (deadlock).
inline int wait_for(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(10ms);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<fs::path> files_named(const fs::path& root, const std::string& suffix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && it->path().filename().string().ends_with(suffix)) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

// Every file under a directory with its type, mode, mtime and (regular files) content;
// symbolic links are not followed and FIFOs not opened.
inline std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    struct stat st {};
    ::lstat(entry.path().c_str(), &st);
    out[entry.path().string()] = std::to_string(st.st_mode) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
                                 std::to_string(st.st_mtim.tv_nsec) +
                                 (S_ISREG(st.st_mode) ? ":" + read_text(entry.path()) : "");
  }
  return out;
}

inline void write_bytes(const fs::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
}

// SQL on the database from outside the store (for damaging rows or ageing them).
inline void sql(const fs::path& database, const std::string& statement) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(database.c_str(), &db) == SQLITE_OK);
  sqlite3_busy_timeout(db, 10000);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &message);
  INFO(statement << ": " << (message ? message : ""));
  sqlite3_free(message);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

// Fails the test (SIGALRM ends the process) instead of letting it hang (on a FIFO, say).
struct HangGuard {
  explicit HangGuard(unsigned seconds) { ::alarm(seconds); }
  ~HangGuard() { ::alarm(0); }
};

using plexus::test::LogCapture;

}  // namespace plexus::cache_test
