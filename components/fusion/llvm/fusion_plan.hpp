// FusionPlan: what fusing a FusionRequest means, decided before any IR is touched: the
// fused nd-range, per kernel whether its work-items are remapped or guarded, the fused
// kernel's arguments (one per identity) and which of them are promoted or constant.
// Legality follows the seed's rules: no two local sizes differ, work-groups are uniform,
// all offsets are equal, a kernel with a local size or an offset needs no global-id
// remapping. Pure functions, thread-safe; no LLVM here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "plexus/fusion_engine.hpp"

namespace plexus::fusion_llvm {

struct PlannedKernel {
  NdRange range;
  bool remap_sizes = false;      // its range differs from the fused one: sizes are constants
  bool remap_global_id = false;  // global ids from the global linear id (dims/shape differ)
  bool guarded = false;          // fewer work-items than the fused range: run under a guard
};

struct PlannedArgument {
  std::uint32_t identity = 0;
  KernelArgKind kind = KernelArgKind::scalar;
  std::size_t size = 0;               // bytes passed
  Promotion promotion = Promotion::none;
  std::size_t promoted_bytes = 0;     // per work-item (private) or per work-group (local)
  std::optional<std::vector<std::byte>> constant;
};

struct FusionPlan {
  NdRange range;                       // of the fused kernel
  std::vector<PlannedKernel> kernels;  // as in the request
  std::vector<PlannedArgument> args;   // distinct identities, in order of first use
  std::vector<std::vector<std::size_t>> arg_of;  // [kernel][parameter] -> index into args
  std::vector<std::string> warnings;   // promotions refused
};

// The plan, or the reason the kernels cannot be fused. Throws plexus::error
// (invalid_argument) for malformed requests: argument lists that do not match the kernels'
// KernelInfo, an identity used with different kinds or sizes, a constant for a pointer,
// invalid nd-ranges.
std::variant<FusionPlan, std::string> plan_fusion(const FusionRequest& request);

}  // namespace plexus::fusion_llvm
