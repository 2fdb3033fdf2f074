// MyCompiler: skeleton of a Plexus compiler (kernel sources or IR -> device code).
// Interface: plexus/compiler.hpp.
//
// As shipped it works for one case: OpenCL C source passed through unchanged to devices
// that build source themselves (BinaryFormat::opencl_c_source: the OpenCL backend), with
// the kernels' parameters read from their signatures by a small scanner (no preprocessor,
// no typedefs). Fill in targets() (the BinaryFormats you can produce) and compile() with
// your own compiler. A source that does not compile is a result, not an exception:
// succeeded = false, with the diagnostics and the log. Throw plexus::error(unsupported)
// only for a target or input language you do not handle. If you use LLVM, link the shared
// libLLVM-15.so (never static archives) and never parse LLVM command-line options.
//
// Thread-safety (the contract): compile() is called from many threads at once; keep no
// mutable state outside a call, or guard it.
#pragma once

#include <vector>

#include "plexus/compiler.hpp"
#include "plexus/plugin_context.hpp"

namespace my_compiler {

class MyCompiler final : public plexus::Compiler {
 public:
  explicit MyCompiler(plexus::PluginContext& context);

  std::vector<plexus::BinaryFormat> targets() const override;
  plexus::CompileResult compile(const plexus::CompileRequest& request) override;

 private:
  std::vector<plexus::BinaryFormat> targets_;
};

}  // namespace my_compiler
