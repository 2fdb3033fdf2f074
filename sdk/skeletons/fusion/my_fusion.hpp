// MyFusionEngine: skeleton of a Plexus fusion engine (a list of kernels -> one kernel).
// Interface: plexus/fusion_engine.hpp.
//
// Fill in fuse(): link the kernels' bitcode into one module, emit one kernel that runs
// them in order (with barriers between them when request.barriers_between_kernels),
// merge arguments with the same identity, promote the requested arguments to private or
// local memory and propagate constant values. A fusion you cannot do is a result, not an
// exception: fused = false with the reason; the runtime then runs the kernels unfused.
// If you use LLVM, link the shared libLLVM-15.so (never static archives).
//
// Thread-safety (the contract): fuse() is called concurrently; keep no mutable state
// outside a call (one LLVMContext per call), or guard it.
#pragma once

#include "plexus/fusion_engine.hpp"
#include "plexus/plugin_context.hpp"

namespace my_fusion {

class MyFusionEngine final : public plexus::FusionEngine {
 public:
  explicit MyFusionEngine(plexus::PluginContext& context);

  plexus::FusionResult fuse(const plexus::FusionRequest& request) override;
};

}  // namespace my_fusion
