// LlvmFusionEngine: the `fusion/llvm` component. Plans the fusion (fusion_plan), links the
// kernels' IR (input_modules; SPIR-V inputs are first turned into SPIR bitcode by the
// compiler component), runs the fusion passes (fusion_pipeline) and compiles the fused
// module to the device's format through the compiler component (language llvm_bitcode).
// Inputs and targets: host LLVM bitcode -> llvm_bitcode; SPIR bitcode or SPIR-V ->
// spir_bitcode or spirv.
//
// Thread-safety: fuse() may be called concurrently: each call has its own LLVMContext; the
// compiler component is thread-safe. Ownership: holds the compiler component's pointer
// (valid for this component's life, as the core creates the compiler first); no LLVM object
// outlives a call. Options: none.
#pragma once

#include "plexus/compiler.hpp"
#include "plexus/fusion_engine.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::fusion_llvm {

class LlvmFusionEngine final : public FusionEngine {
 public:
  explicit LlvmFusionEngine(PluginContext& context);
  // Reads no options: a key in its table is warned about (plugin.hpp, check_options).
  static void check_options(const ComponentOptions&) {}
  ~LlvmFusionEngine() override;

  FusionResult fuse(const FusionRequest& request) override;

 private:
  Compiler* compiler_;
};

}  // namespace plexus::fusion_llvm
