// ProgramCache: the runtime's in-memory program cache (DPC++'s design, seed
// kernel-program-cache.txt "In-memory cache"), two levels over BuildCache::get_or_build:
//   programs: (hash of the source, options, binary format, architecture, IR or not, source)
//             -> the compiler's binary and kernel list; with emit_ir, the kernels' LLVM
//             bitcode for the format's target (fusion input for native formats);
//   modules:  (program key, device) -> the binary loaded on that device;
//   fused:    (a description of a fusion request) -> the fusion engine's result;
//   bundles:  (source, options as given) -> the finished Runtime::build bundle, so that a
//             repeated build is one lookup (the kernel map's front; bundles are immutable).
// One build per key across threads; waiters share the result or the plexus::error.
//
// Size limit (`[program_cache] max_bytes`, Config::program_cache_max_bytes; 0: unbounded):
// it bounds each level on its own, so the four together account for at most 4 x max_bytes.
// Within a level, finished entries are evicted least recently used first once the level's
// total passes the limit (BuildCache); the entry just built stays even when it alone is
// larger. An entry's size is what it holds:
//   programs: the binary, plus the kernels' metadata (names, arguments);
//   modules:  an estimate of the loaded code: the size of the binary it was loaded from,
//             plus the kernels' metadata (backends report no module size);
//   fused:    the fused binary, its IR when kept, the kernel's metadata, the argument
//             lists, the reason and warnings;
//   bundles:  the bytes of every image the bundle holds (shared with the programs level,
//             and counted there as well), plus the kernels' metadata and the source kept
//             for fusion.
// Evicting drops the cache's reference only: bundles, kernels and tasks that hold a value
// keep it alive; a later request for an evicted key is a miss and builds it again.
// Internal to the core. Thread-safety: every member is safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/build_cache.hpp"
#include "plexus/build_properties.hpp"
#include "plexus/compiler.hpp"
#include "plexus/device.hpp"
#include "plexus/fusion_engine.hpp"

namespace plexus::detail {

class BundleState;

// What Runtime::build was called with, as given (options not normalised: differently spaced
// options miss here and hit the program level instead).
struct BundleKey {
  std::size_t source_hash = 0;
  std::string options;
  std::string source;  // compared last
  std::string properties{};  // properties_key() of BuildProperties; empty for OpenCL C

  bool operator<(const BundleKey& other) const {
    return std::tie(source_hash, options, properties, source) <
           std::tie(other.source_hash, other.options, other.properties, other.source);
  }
};

struct ProgramKey {
  std::uint64_t source_hash = 0;
  std::string options;
  BinaryFormat format = BinaryFormat::spirv;
  std::string architecture;
  std::string source;  // compared last: tells apart sources whose hashes collide
  // The compiler's LLVM bitcode for `format`'s target instead of `format`
  // (CompileRequest::emit_ir): what fusion takes for native formats (PTX).
  bool emit_ir = false;
  // The language, virtual include files and registered names (properties_key(); empty:
  // OpenCL C without includes), and the properties they were written from.
  std::string properties{};
  std::shared_ptr<const BuildProperties> build{};

  auto tied() const {
    return std::tie(source_hash, options, format, architecture, emit_ir, properties, source);
  }
  bool operator<(const ProgramKey& other) const { return tied() < other.tied(); }
};

struct CompiledProgram {
  std::vector<std::byte> binary;
  BinaryFormat format = BinaryFormat::spirv;
  std::vector<KernelInfo> kernels;
};

struct LoadedProgram {
  std::shared_ptr<DeviceModule> module;
  std::uint64_t bytes = 0;  // the size estimate the modules level counts
};

class ProgramCache {
 public:
  // Every level bounded by `max_bytes` (0: unbounded).
  explicit ProgramCache(std::uint64_t max_bytes = 0);

  // Compiles (once per key) through `compiler` (to IR when key.emit_ir); plexus::error(build)
  // with the log.
  std::shared_ptr<const CompiledProgram> compile(Compiler& compiler, const ProgramKey& key,
                                                 const std::vector<std::string>& options);
  // Compiles (once per key) binary input `bytes` in `language` (spirv or llvm_bitcode) to
  // key.format through `compiler`: a loaded image's translation (key: image_key()).
  std::shared_ptr<const CompiledProgram> translate(Compiler& compiler, const ProgramKey& key,
                                                   SourceLanguage language,
                                                   std::span<const std::byte> bytes);
  // Loads (once per key and device) the compiled program on `device`.
  std::shared_ptr<DeviceModule> load(Device& device, const ProgramKey& key,
                                     const CompiledProgram& program);

  // Fuses (once per key) through `engine`; a result that is not fused is cached too. The
  // key describes the request (see fusion_session.cpp).
  std::shared_ptr<const FusionResult> fuse(FusionEngine& engine, const std::string& key,
                                           const FusionRequest& request);

  // The bundle built for `key` (once per key; `build` makes it).
  std::shared_ptr<const BundleState> bundle(
      const BundleKey& key, const std::function<std::shared_ptr<const BundleState>()>& build) {
    return bundles_.get_or_build(key, build);
  }

  BuildCacheStats program_stats() const { return programs_.stats(); }
  BuildCacheStats bundle_stats() const { return bundles_.stats(); }
  BuildCacheStats fusion_stats() const { return fused_.stats(); }
  BuildCacheStats module_stats() const { return modules_.stats(); }

 private:
  struct ModuleKey {
    ProgramKey program;
    const Device* device = nullptr;
    bool operator<(const ModuleKey& other) const {
      return std::tie(program, device) < std::tie(other.program, other.device);
    }
  };

  BuildCache<ProgramKey, CompiledProgram> programs_;
  BuildCache<ModuleKey, LoadedProgram> modules_;
  BuildCache<std::string, FusionResult> fused_;
  BuildCache<BundleKey, BundleState> bundles_;
};

// The key of prebuilt device code (Runtime::load): 64-bit FNV-1a of the bytes, and in
// `options` their format, size and a second hash (so that keys differ unless the contents
// match); `format`: the format loaded; no source text.
ProgramKey image_key(std::span<const std::byte> bytes, BinaryFormat from, BinaryFormat to,
                     const std::string& architecture);

// What a key holds of `properties` besides the source and options: the language, the
// virtual include files and the registered names, length-prefixed; empty for OpenCL C
// without them (the keys of build(source, options)).
std::string properties_key(const BuildProperties& properties);

// 64-bit FNV-1a of the source: the cache key's quick discriminator.
std::uint64_t source_hash(const std::string& source);

}  // namespace plexus::detail
