#include "llvm_fusion_engine.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(fusion, llvm, plexus::fusion_llvm::LlvmFusionEngine, "0.1.0",
              "LLVM 15 kernel fusion: fused entry with barriers and work-item remapping, "
              "private/local internalization, constant propagation, O3; compiled through "
              "the compiler component")
