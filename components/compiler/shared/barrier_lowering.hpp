// BarrierLowering: libclc 15 has barrier() but not OpenCL 2.0's work_group_barrier(flags
// [, scope]); calls to it become barrier(flags), which is what it means with the
// work-group scope. Run on a module for nvptx64/amdgcn before libclc is linked.
//
// Thread-safety: stateless; changes only the module it is given.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

class BarrierLowering {
 public:
  // True when the module was changed.
  static bool lower_work_group_barrier(llvm::Module& module);
};

}  // namespace plexus::compiler_shared
