// JitModule: one host bitcode module compiled in process by LLVM ORC (LLJIT, the shared
// libLLVM-15): parsed, its kernels wrapped (kernel_wrappers.hpp), optimised at O3 for the
// host CPU, and compiled; keeps the JIT (and so the code) alive while it lives.
//
// Calls from JIT code resolve to __plexus_barrier (the fiber switch) and to the process's
// own symbols (libm, memcpy); anything else is refused at load time with its name.
// Errors: plexus::error(build) for bitcode that does not parse, another target, a kernel
// the host cannot run, unresolved functions, or a JIT failure.
// Thread-safety: immutable after construction; entry() is safe from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernel_wrappers.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus::host {

class JitModule {
 public:
  JitModule(std::span<const std::byte> bitcode, const std::vector<KernelInfo>& kernels);
  ~JitModule();
  JitModule(const JitModule&) = delete;
  JitModule& operator=(const JitModule&) = delete;

  // The prepared kernels, in the order of `kernels`, with their entry addresses.
  const std::vector<PreparedKernel>& kernels() const { return kernels_; }
  void* entry(std::size_t kernel) const { return entries_[kernel]; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<PreparedKernel> kernels_;
  std::vector<void*> entries_;
};

}  // namespace plexus::host
