// Helpers for Plexus tests: temporary directories, scoped environment variables and
// working directories, where the build put the plugins, and whether a library is mapped.
// Not thread-safe (environment and working directory are process-wide).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>

namespace plexus::test {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = fs::temp_directory_path() / ("plexus-test-" + std::to_string(random()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& name, const std::string& content) const {
    fs::path file = path_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file;
  }

 private:
  fs::path path_;
};

class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value) {
      setenv(name_.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

class ScopedWorkingDir {
 public:
  explicit ScopedWorkingDir(const fs::path& dir) : old_(fs::current_path()) {
    fs::current_path(dir);
  }
  ~ScopedWorkingDir() { fs::current_path(old_); }

 private:
  fs::path old_;
};

inline fs::path env_path(const char* name) {
  const char* value = std::getenv(name);
  return value ? fs::path(value) : fs::path();
}

// The real plugins of this build, and the test-only plugins (tests/plugins).
inline fs::path build_plugin_dir() { return env_path("PLEXUS_BUILD_PLUGIN_DIR"); }
inline fs::path test_plugin_dir(const std::string& name) {
  return env_path("PLEXUS_TEST_PLUGIN_DIR") / name;
}

// Whether a file is currently mapped into this process (loaded as a library).
inline bool is_mapped(const fs::path& file) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const std::string wanted = fs::weakly_canonical(file).string();
  while (std::getline(maps, line)) {
    if (line.size() >= wanted.size() && line.ends_with(wanted)) return true;
  }
  return false;
}

}  // namespace plexus::test
