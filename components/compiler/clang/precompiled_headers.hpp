// PrecompiledHeaders: the precompiled <sycl/sycl.hpp> (Clang PCHs, in memory) that the
// frontend has built, one per key (a hash of everything the PCH depends on: the clang
// version, the frontend's arguments, the prefix and the SYCL headers; Frontend computes it).
// A kept PCH is used only while the files it read from disk (Clang's resource headers) are
// as they were when it was built (size and modification time, checked at each use);
// otherwise it is built again. At most `capacity` PCHs are kept (the oldest goes first).
//
// Thread-safety: get() may be called from many threads at once; one build per key runs at
// a time, and callers asking for that key meanwhile wait for it and share the result.
// Ownership: a PrecompiledHeader is immutable and shared; it lives as long as its users.
#pragma once

#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace plexus::clang_compiler {

struct PrecompiledHeader {
  std::string key;
  std::string bytes;  // the PCH (Clang's raw AST file; a string: null-terminated)
  // The files the PCH read from disk, with what they were: "size mtime" (disk_identity).
  std::vector<std::pair<std::string, std::string>> disk_files;
  double build_ms = 0;
};

// "size mtime" of `path`, or "missing".
std::string disk_identity(const std::string& path);
// Whether the files `header` read from disk are as they were when it was built.
bool disk_files_unchanged(const PrecompiledHeader& header);

class PrecompiledHeaders {
 public:
  using Build = std::function<std::shared_ptr<const PrecompiledHeader>()>;

  explicit PrecompiledHeaders(std::size_t capacity = 16) : capacity_(capacity) {}

  // The PCH kept for `key`, or the one `build` makes (nullptr when it fails; a failure is
  // not kept, and `build`'s exception goes to the callers waiting for it).
  std::shared_ptr<const PrecompiledHeader> get(const std::string& key, const Build& build);

  // How many PCHs were built (not found) since construction: for tests and logs.
  std::size_t builds() const;

 private:
  using Future = std::shared_future<std::shared_ptr<const PrecompiledHeader>>;
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::map<std::string, Future> entries_;  // under mutex_
  std::list<std::string> order_;           // keys, oldest first; under mutex_
  std::size_t builds_ = 0;                 // under mutex_
};

}  // namespace plexus::clang_compiler
