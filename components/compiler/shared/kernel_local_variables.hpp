// give_kernels_their_locals: each kernel gets its own copy of every work-group local variable
// (a global of the local address space, 3) that it uses, named "<kernel>.<variable>", and
// the functions between a kernel and its uses of one are inlined into the kernel first.
//
// Why: SPIR 1.2 has local variables only in a kernel's own scope, and its consumers find a
// kernel's by that name. PoCL (SPIR bitcode) takes any other local global for one memory
// shared by every work-group that runs at once, so a SYCL work_group_static at namespace
// scope, or a function static in a helper (the group algorithms' scratch), raced between
// work-groups on a many-core CPU. A copy per kernel is what every target allocates per
// work-group anyway, so the pass runs on every target's SYCL module.
//
// Uses outside kernels that no kernel reaches (an external function nobody calls) keep the
// original variable. Thread-safety: stateless; changes only `module`.
#pragma once

namespace llvm {
class Module;
}

namespace plexus::compiler_shared {

// True when it changed `module`.
bool give_kernels_their_locals(llvm::Module& module);

}  // namespace plexus::compiler_shared
