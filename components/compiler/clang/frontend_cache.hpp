// FrontendCache: compiler/clang's use of the configured cache store (`[cache] use = ...`).
//
// Level 1 (sources only): the frontend's LLVM bitcode and warnings, keyed by BLAKE3 over
// the preprocessed source (includes resolved, line markers kept), the compiler identity
// (LLVM_VERSION_STRING, this component's version, the entry format version), the target
// spec (triple, CPU, features, pointer mode, address-space map) and the rendered frontend
// arguments. SPIR-V and SPIR bitcode share a frontend result (same spec).
// Level 2: the finished binary, kernels and diagnostics, keyed by BLAKE3 over the level-1
// key (or, for bitcode, IR and SPIR-V inputs, over the input bytes, language, name and
// options), the target format and architecture, kernel_name and the device library
// identity (path, size, modification time).
//
// PCHs: the precompiled <sycl/sycl.hpp> of each frontend command line (Frontend), keyed by
// BLAKE3 over the Frontend's own key of it and the identity below; device "pch/sycl".
// The precompiled SYCL collectives (a bitcode library per command line) are kept the same
// way, device "library/sycl_collectives".
//
// CacheKey fields: device = "frontend/<triple>[/<cpu>]" or "binary/<format>/<triple>[/<cpu>]",
// image = the 64-hex-digit hash, build_options = the rendered arguments, so a store that
// compares the full key compares those too. Values use CacheEntryFormat; a value that does
// not decode is erased and counted as a miss (debug log).
//
// Thread-safety: immutable after construction; the store is thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cache_entry_format.hpp"
#include "frontend.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"

namespace plexus::clang_compiler {

class KeyHasher;

// The target spec's part of a key (triple, CPU, features, pointer mode, address spaces).
void add_spec(KeyHasher& hasher, const TargetSpec& spec);
// CacheKey::device of an entry: "<level>/<triple>[/<cpu>]".
std::string device_of(std::string_view level, const TargetSpec& spec);

class FrontendCache {
 public:
  FrontendCache(CacheStore& store, std::string component_version);

  struct Key {
    std::string hash;  // hex BLAKE3
    CacheKey store_key;
  };

  Key frontend_key(const Frontend::Preprocessed& preprocessed, SourceLanguage language,
                   const TargetSpec& spec) const;
  // Stands in for the level-1 key of inputs that do not go through the frontend.
  Key input_key(const CompileRequest& request, const std::vector<std::string>& options,
                const TargetSpec& spec) const;
  // `libraries`: identity of the device libraries the back end links for this target.
  Key binary_key(const Key& level1, const CompileRequest& request, const TargetSpec& spec,
                 const std::string& libraries) const;

  // `hash`: Frontend's key of the PCH; `arguments`: its command line (shown by the store);
  // `device`: what it is ("pch/sycl", or "library/sycl_collectives" for the collectives).
  Key pch_key(const std::string& hash, const std::vector<std::string>& arguments,
              const std::string& device = "pch/sycl") const;

  std::optional<FrontendEntry> load_frontend(const Key& key) const;
  void store_frontend(const Key& key, FrontendEntry entry) const;
  std::optional<BinaryEntry> load_binary(const Key& key) const;
  void store_binary(const Key& key, BinaryEntry entry) const;
  std::optional<PchEntry> load_pch(const Key& key) const;
  void store_pch(const Key& key, PchEntry entry) const;
  // A level-1 entry whose bitcode did not parse: erased (it decoded, so it is not
  // corrupted in transit, but a hit must never be trusted over a fresh compile).
  void discard(const Key& key, const std::string& why) const;

  CacheStore& store() const { return store_; }
  // LLVM version, component version and entry format version: part of every key.
  const std::string& identity() const { return identity_; }

 private:
  template <typename Entry>
  using Decoder = std::optional<Entry> (*)(std::span<const std::byte>, const std::string&,
                                           std::string&);
  // A value of the store as an entry (an undecodable one is discarded: a miss).
  template <typename Entry>
  std::optional<Entry> load_entry(const Key& key, Decoder<Entry> decode) const;
  template <typename Entry>
  void store_entry(const Key& key, Entry entry) const;

  CacheStore& store_;
  std::string identity_;
};

}  // namespace plexus::clang_compiler
