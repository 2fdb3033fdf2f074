// FusionEngine: fuses a list of kernels (as LLVM bitcode) into one kernel.
//
// Thread-safety: fuse() may be called concurrently. Failure is a result, not an
// exception: fused == false with the reason, and the runtime then runs the kernels unfused
// (or reports the reason as an error when the user asked to fuse or fail).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plexus/access_range.hpp"
#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"

namespace plexus {

enum class Promotion { none, private_memory, local_memory };

struct FusionArgument {
  std::uint32_t identity = 0;   // arguments with the same identity are the same value
  Promotion promotion = Promotion::none;
  std::optional<std::vector<std::byte>> constant_value;  // propagate when set
};

struct FusionKernel {
  std::vector<std::byte> bitcode;
  std::string name;
  Extent3 global_size{1, 1, 1};
  Extent3 local_size{0, 0, 0};  // 0: unspecified
  std::vector<FusionArgument> args;
};

struct FusionRequest {
  std::vector<FusionKernel> kernels;
  bool barriers_between_kernels = true;
};

struct FusionResult {
  bool fused = false;
  std::string reason;               // why not fused
  std::vector<std::byte> bitcode;   // the fused module
  std::string kernel_name;
  std::vector<std::uint32_t> arg_identities;  // the fused kernel's arguments, in order
};

class PLEXUS_API FusionEngine : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::fusion;
  ~FusionEngine() override;

  virtual FusionResult fuse(const FusionRequest& request) = 0;
};

}  // namespace plexus
