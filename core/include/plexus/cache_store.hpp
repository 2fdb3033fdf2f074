// CacheStore: a persistent store of build results (device binaries, frontend bitcode).
//
// Keys are the full key material; a store hashes them for addressing and compares the
// full key on lookup (no silent collisions). load() returns only data whose integrity the
// store has verified. Thread-safety: all members are safe from any thread, and stores that
// persist must be safe with many processes using the same location at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"

namespace plexus {

struct CacheKey {
  std::string device;          // identity of the target device and its driver
  std::string image;           // identity of the input (source, IR, SYCLBIN image)
  std::string spec_constants;  // specialization-constant values
  std::string build_options;   // rendered build options
};

struct CacheStats {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t stores = 0;
  std::uint64_t evictions = 0;
};

class PLEXUS_API CacheStore : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::cache;
  ~CacheStore() override;

  virtual std::optional<std::vector<std::byte>> load(const CacheKey& key) = 0;
  virtual void store(const CacheKey& key, std::span<const std::byte> value) = 0;
  virtual bool erase(const CacheKey& key) = 0;
  virtual CacheStats stats() const = 0;
};

}  // namespace plexus
