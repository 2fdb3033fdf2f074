// KernelInfo: what the runtime needs to know about one kernel of a module. Plain data.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace plexus {

enum class KernelArgKind { global_pointer, constant_pointer, local_pointer, scalar, sampler, image };

struct KernelArgInfo {
  std::string name;
  KernelArgKind kind = KernelArgKind::scalar;
  std::size_t size = 0;  // bytes of the value passed (pointer or scalar)
  // __global pointers: the kernel's code stores through it (a definite store the compiler
  // found: compiler_shared::stores_through). False when it only reads, or when unknown.
  bool written = false;
};

struct KernelInfo {
  std::string name;
  std::vector<KernelArgInfo> args;
  std::array<std::size_t, 3> required_work_group_size{0, 0, 0};  // 0: none required
  bool uses_barriers = false;
  bool uses_local_memory = false;
  // A checked kernel (kernel_checks.hpp): its last parameter, args.back(), is the check
  // record the runtime passes; the application gives the others.
  bool bounds_checked = false;
  // A cancellable kernel (kernel_cancel.hpp): it takes one parameter more than `args`
  // lists, the very last, a pointer to a cancel cell that the backend passes.
  bool cancellable = false;

  // The parameters the application gives (all but the check record).
  std::size_t user_arg_count() const { return args.size() - (bounds_checked && !args.empty() ? 1 : 0); }
};

}  // namespace plexus
