// MyCompiler: skeleton of a Plexus compiler (kernel sources or IR -> device code).
// Interface: plexus/compiler.hpp.
//
// Fill in targets() (the BinaryFormats you can produce) and compile(). A source that does
// not compile is a result, not an exception: succeeded = false, with the diagnostics and
// the log. Throw plexus::error(unsupported) only for a target or input language you do
// not handle. If you use LLVM, link the shared libLLVM-15.so (never static archives) and
// never parse LLVM command-line options.
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
