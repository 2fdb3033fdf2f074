// prepare_kernels: turns a host bitcode module (kernels + the host device library) into
// one the JIT can run. For each kernel K it generates, in IR:
//   - `K.plexus_item(void** args, state*)`: unpacks the argument slots (a pointer to each
//     value; for __local pointer parameters, a pointer to a byte offset into the
//     work-group's local block) and runs one work-item;
//   - for kernels without barriers, `K.plexus_group(void** args, state*)`: loops over the
//     work-items of one work-group (local ids 0..local-1 in each dimension) around the
//     inlined body, so LLVM can vectorise it.
// Every other function is inlined into these entries (OpenCL has no recursion), calls to
// __plexus_wi() become the entry's state parameter, and __local variables move into the
// per-group local block (local_memory.hpp). Kernels that call barrier keep only the
// per-work-item entry (run as fibers, fiber_group.hpp).
//
// Errors: plexus::error(build) naming the kernel (not in the module, recursion, ...).
// Thread-safety: works on the one module it is given.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plexus/kernel_info.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::host {

struct PreparedKernel {
  std::string name;
  std::string entry;  // the symbol to run: K.plexus_group, or K.plexus_item with barriers
  bool uses_barriers = false;
  std::uint64_t static_local_bytes = 0;  // __local variables, at the start of the block
  std::uint64_t private_bytes = 0;       // the entry's stack allocations (set after optimising)
};

std::vector<PreparedKernel> prepare_kernels(llvm::Module& module,
                                            const std::vector<KernelInfo>& kernels);

}  // namespace plexus::host
