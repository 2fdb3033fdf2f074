#include "my_fusion.hpp"

namespace my_fusion {

MyFusionEngine::MyFusionEngine([[maybe_unused]] plexus::PluginContext& context) {
  // Options come from the config's `[fusion.my_fusion]` table, e.g.
  //   [fusion.my_fusion]
  //   max_kernels = 8
  // Read every option you support (unread keys are reported as probable typos).
}

plexus::FusionResult MyFusionEngine::fuse([[maybe_unused]] const plexus::FusionRequest& request) {
  plexus::FusionResult result;
  // TODO: fuse request.kernels; on success set fused = true, bitcode, kernel_name and
  // arg_identities (the fused kernel's arguments, in order).
  result.fused = false;
  result.reason = "my_fusion: fusion is not implemented yet";
  return result;
}

}  // namespace my_fusion
