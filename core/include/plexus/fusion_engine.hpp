// FusionEngine: fuses an ordered list of kernels (LLVM bitcode, SPIR bitcode or SPIR-V)
// into one kernel of a device's binary format: a new entry that runs each kernel in order
// (barriers between them as asked, work-items remapped when the nd-ranges differ),
// arguments passed to several kernels merged into one (by identity), intermediate buffers
// promoted to private or local memory, declared-constant arguments propagated, then
// optimised and compiled through the compiler component.
//
// Thread-safety: fuse() may be called concurrently. Ownership: the request and the result
// are plain data owned by the caller.
// Failure is a result, not an exception: fused == false with the reason (different local
// sizes, non-uniform work-groups, an empty list, ...), and the runtime then runs the kernels
// unfused (or reports the reason as an error when the user asked to fuse or fail). A
// promotion that cannot be done (the pointer escapes, sizes disagree) is not a failure: the
// argument stays in global memory and `warnings` says why.
// Malformed requests (argument lists that do not match the kernels' KernelInfo, unknown
// formats) throw plexus::error(invalid_argument / unsupported).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/kernel_info.hpp"
#include "plexus/nd_range.hpp"

namespace plexus {

enum class Promotion { none, private_memory, local_memory };

struct FusionArgument {
  // Arguments with the same identity (across all kernels) are the same buffer or value and
  // become one argument of the fused kernel.
  std::uint32_t identity = 0;
  // A hint for a buffer argument: private (size = buffer_bytes / global work-items) or local
  // (size = buffer_bytes / work-groups; needs a local size). Every access p + off becomes
  // p + off % size. Arguments of one identity must agree.
  Promotion promotion = Promotion::none;
  std::size_t buffer_bytes = 0;  // the buffer's size; needed for a promotion
  // When set, the (scalar) argument is replaced by this value (its bytes, host order) and is
  // not an argument of the fused kernel.
  std::optional<std::vector<std::byte>> constant_value;
};

struct FusionKernel {
  // llvm_bitcode (for the host, or a native target's IR: for ptx, the compiler's output with
  // CompileRequest::emit_ir), spir_bitcode or spirv.
  BinaryFormat format = BinaryFormat::llvm_bitcode;
  std::vector<std::byte> binary;  // a module that defines the kernel (others are ignored)
  KernelInfo info;                // the kernel's name and arguments, as the compiler gave them
  NdRange range;                  // its launch
  std::vector<FusionArgument> args;  // one per info.args
};

enum class FusionBarrier : unsigned { none = 0, local = 1, global = 2, local_and_global = 3 };

struct FusionRequest {
  std::vector<FusionKernel> kernels;  // in order; a kernel may appear more than once
  FusionBarrier barrier = FusionBarrier::local_and_global;  // between consecutive kernels
  BinaryFormat target = BinaryFormat::llvm_bitcode;  // the device's format
  std::string target_architecture;                   // as CompileRequest's
  std::string fused_name = "plexus_fused";
  bool keep_ir = false;  // return the fused, optimised LLVM IR as text (FusionResult::ir)
};

struct FusionResult {
  bool fused = false;
  std::string reason;  // why not fused
  std::vector<std::byte> binary;  // the fused kernel, in request.target
  BinaryFormat format = BinaryFormat::llvm_bitcode;
  KernelInfo kernel;   // the fused kernel as the compiler reports it
  NdRange range;       // the launch of the fused kernel
  // The identity of each argument of the fused kernel, in order.
  std::vector<std::uint32_t> arg_identities;
  // Identities promoted to private or local memory (no longer arguments; their buffers are
  // neither read nor written by the fused kernel).
  std::vector<std::uint32_t> promoted;
  std::vector<std::string> warnings;  // promotions refused, with the reason
  std::string ir;                     // when request.keep_ir
};

class PLEXUS_API FusionEngine : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::fusion;
  ~FusionEngine() override;

  virtual FusionResult fuse(const FusionRequest& request) = 0;
};

}  // namespace plexus
