// Kernel fault reports: a SIGSEGV or SIGBUS raised while a thread runs a kernel on the CPU
// (the host backend's work-groups) prints which kernel faulted, and where, on stderr
// before the process ends, instead of ending it without a word:
//   plexus: kernel 'stencil' faulted on the host device: SIGSEGV at address 0x...
// The handler then hands the signal on: to the handler installed before it (a crash
// reporter, a sanitizer), else to the default action (the process ends by that signal, as
// without it). Faults outside a KernelFaultScope go on unchanged.
//
// install_kernel_fault_report() installs the handler for SIGSEGV and SIGBUS (on an alternate
// stack, so a kernel that overflows its stack is reported too) unless it is installed
// already; call it when a CPU backend starts. It lives in the core, which stays loaded for
// the whole process, so unloading a plugin never leaves a handler in unmapped code.
// KernelFaultScope names the kernel the calling thread runs while the scope lives (two
// thread-local stores: nothing measurable per work-group).
// Thread-safety: both are safe from any thread.
#pragma once

#include "plexus/export.hpp"

namespace plexus {

PLEXUS_API void install_kernel_fault_report();

class PLEXUS_API KernelFaultScope {
 public:
  // `kernel` (and `device`) must outlive the scope.
  KernelFaultScope(const char* kernel, const char* device) noexcept;
  ~KernelFaultScope();
  KernelFaultScope(const KernelFaultScope&) = delete;
  KernelFaultScope& operator=(const KernelFaultScope&) = delete;

 private:
  const char* previous_kernel_;
  const char* previous_device_;
};

}  // namespace plexus
