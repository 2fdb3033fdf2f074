// DirectCache: ccache's "direct mode" for compiler/clang: finds a finished binary (level 2)
// without running the preprocessor, which is most of the cost of a cache hit.
//
// Key: BLAKE3 over the raw request (language, source, source_name, virtual include files,
// options, target format and architecture, kernel_name), the compiler identity, the target
// spec, the device libraries' identity and the working directory (relative -I paths and
// source names resolve against it). Value, a manifest: the level-2 key the request resolved
// to, and every file the preprocessor read from disk with its size, modification time and
// BLAKE3 content hash. A manifest is trusted only while each listed file is unchanged: size
// and modification time equal, or else the same content hash. Anything else (a changed
// header, a manifest that does not decode) is a miss, and the slow path (preprocess, level
// 1 and 2) runs and rewrites the manifest. Caveat, as in ccache: a header created later
// earlier on the include path, shadowing a listed one, is not noticed.
//
// CacheKey: device = "direct/<format>/<triple>[/<cpu>]", image = the hash.
// Thread-safety: immutable after construction; the store is thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend_cache.hpp"

namespace plexus::clang_compiler {

class DirectCache {
 public:
  explicit DirectCache(const FrontendCache& cache) : cache_(cache) {}

  FrontendCache::Key key(const CompileRequest& request, const TargetSpec& spec,
                         const std::string& libraries) const;
  // The level-2 key a valid manifest names, or nullopt.
  std::optional<FrontendCache::Key> resolve(const FrontendCache::Key& direct) const;
  // Writes the manifest; files that cannot be read make it unrecorded (debug log).
  void record(const FrontendCache::Key& direct, const FrontendCache::Key& level2,
              const std::vector<std::string>& disk_files) const;

 private:
  const FrontendCache& cache_;
};

}  // namespace plexus::clang_compiler
