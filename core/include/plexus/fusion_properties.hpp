// Properties of Queue::complete_fusion:
//
//   q.complete_fusion({plexus::promote_private(tmp), plexus::no_barriers()});
//
// promote_private / promote_local: a hint that a buffer is an intermediate of the fused
// kernels: it moves to private memory (its size / work-items per work-item) or local
// memory (its size / work-groups per work-group), every access p + off becomes
// p + off % size, and the buffer itself is neither read nor written by the fused kernel.
// Refused (the buffer stays global, with a warning) when its pointer escapes or the sizes
// disagree. no_barriers: no barrier between the fused kernels (the default puts a
// work-group barrier with local and global fences between them). fuse_or_fail: when the
// kernels cannot be fused, complete_fusion throws plexus::error(unsupported) with the reason
// instead of running them unfused.
// Plain data; the promotion holds the buffer's storage (shared) until the call returns.
#pragma once

#include <memory>
#include <vector>

#include "plexus/fusion_engine.hpp"

namespace plexus {

namespace detail {
class BufferStorage;
}

struct FusionProperty {
  enum class Kind { promote, no_barriers, fuse_or_fail } kind = Kind::promote;
  std::shared_ptr<detail::BufferStorage> buffer;  // promote
  Promotion promotion = Promotion::none;
};

template <class BufferType>
FusionProperty promote_private(const BufferType& buffer) {
  return {FusionProperty::Kind::promote, buffer.handle().storage(), Promotion::private_memory};
}
template <class BufferType>
FusionProperty promote_local(const BufferType& buffer) {
  return {FusionProperty::Kind::promote, buffer.handle().storage(), Promotion::local_memory};
}
inline FusionProperty no_barriers() { return {FusionProperty::Kind::no_barriers, nullptr, {}}; }
inline FusionProperty fuse_or_fail() { return {FusionProperty::Kind::fuse_or_fail, nullptr, {}}; }

}  // namespace plexus
