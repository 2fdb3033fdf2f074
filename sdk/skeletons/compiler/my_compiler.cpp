#include "my_compiler.hpp"

#include <string>

#include "plexus/error.hpp"

namespace my_compiler {

MyCompiler::MyCompiler([[maybe_unused]] plexus::PluginContext& context) {
  // Options come from the config's `[compiler.my_compiler]` table, e.g.
  //   [compiler.my_compiler]
  //   optimization = 2
  // Read every option you support (unread keys are reported as probable typos).
  //
  // TODO: list the formats compile() can produce, e.g.
  //   targets_ = {plexus::BinaryFormat::spirv, plexus::BinaryFormat::ptx};
}

std::vector<plexus::BinaryFormat> MyCompiler::targets() const { return targets_; }

plexus::CompileResult MyCompiler::compile(const plexus::CompileRequest& request) {
  // TODO: compile request.source (request.language, request.includes, request.options)
  // for request.target, fill result.binary, result.kernels (one KernelInfo per kernel)
  // and, on failure, result.diagnostics and result.log. request.emit_ir asks for the
  // target's LLVM bitcode before device libraries and the back end (what fusion engines
  // take): produce it, or throw unsupported saying so.
  if (request.emit_ir)
    throw plexus::error(plexus::error_category::unsupported,
                        "my_compiler: emitting LLVM IR (emit_ir) is not implemented");
  const std::string target(plexus::to_string(request.target));
  throw plexus::error(plexus::error_category::unsupported,
                      "my_compiler: compiling to " + target + " is not implemented yet");
}

}  // namespace my_compiler
