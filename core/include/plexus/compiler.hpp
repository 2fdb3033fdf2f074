// Compiler: turns kernel sources (or IR) into device code of a requested format.
//
// Thread-safety: compile() may be called concurrently from many threads.
// Errors: a source that does not compile is not an exception: the result has
// succeeded == false and carries the diagnostics. An unsupported target or input throws
// plexus::error(unsupported).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/diagnostic.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus {

// sycl: SYCL free-function kernels (DPC++'s kernel_compiler source language): `extern "C"`
// kernels and those named in CompileRequest::registered_names become kernels;
// `#include <sycl/sycl.hpp>` gives Plexus's device headers (docs/api.md, "SYCL source").
enum class SourceLanguage { opencl_c, cpp_for_opencl, llvm_bitcode, llvm_ir_text, spirv, sycl };

struct VirtualFile {
  std::string name;     // as named in #include
  std::string content;
};

struct CompileRequest {
  SourceLanguage language = SourceLanguage::opencl_c;
  std::string source;                 // text, or bytes for binary inputs
  // The name diagnostics give the source; a path also makes `#include "..."` resolve
  // beside the file on disk. Empty: "kernel.cl" (or "kernel.clcpp", "kernel.cpp" for sycl)
  // in a virtual directory.
  std::string source_name;
  std::vector<VirtualFile> includes;
  std::vector<std::string> options;   // user build options: -D, -I, -cl-std=, -O, ...
  // sycl only: C++ expressions naming kernels that are not `extern "C"` ("ns::scale<float>");
  // each becomes a kernel named registered_kernel_symbol(name) (plexus/sycl_names.hpp).
  std::vector<std::string> registered_names;
  BinaryFormat target = BinaryFormat::spirv;
  std::string target_architecture;    // "sm_80", "gfx90a", empty for the default
  // When set, the output holds only this kernel (and what it calls); a name the source does
  // not define is an error that lists the kernels it does define.
  std::string kernel_name;
  // When set, the compiler stops before device libraries are linked and the back end runs:
  // the result's binary is the module as LLVM bitcode for `target`'s triple (spir64 for
  // SPIR targets, nvptx64-nvidia-nvcl for ptx, amdgcn-amd-amdhsa for amdgcn, the host's for
  // llvm_bitcode), work-item functions still calls (get_global_id, ...), and its format is
  // llvm_bitcode. Compiling that bitcode again with `target` (language llvm_bitcode)
  // finishes the job. This is what a fusion engine takes for native targets (PTX).
  // A compiler that cannot stop there throws plexus::error(unsupported).
  bool emit_ir = false;
};

struct CompileResult {
  bool succeeded = false;
  std::vector<std::byte> binary;
  BinaryFormat format = BinaryFormat::spirv;
  std::vector<KernelInfo> kernels;
  std::vector<Diagnostic> diagnostics;
  std::string log;                    // the diagnostics as the user would read them
  // Whether the compiler reused cached work (through the configured cache store).
  bool frontend_cache_hit = false;    // the frontend's LLVM IR came from the cache
  bool binary_cache_hit = false;      // the finished binary came from the cache
};

class PLEXUS_API Compiler : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::compiler;
  ~Compiler() override;

  virtual std::vector<BinaryFormat> targets() const = 0;
  virtual CompileResult compile(const CompileRequest& request) = 0;
};

}  // namespace plexus
