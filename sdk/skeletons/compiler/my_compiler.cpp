#include "my_compiler.hpp"

#include <cctype>
#include <map>
#include <string>
#include <string_view>

#include "plexus/error.hpp"

namespace my_compiler {

namespace {

std::string trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return std::string(text);
}

// One kernel parameter, e.g. "__global const float* a" or "uint n". Returns false (and
// sets `why`) for what this scanner cannot size.
bool parse_parameter(const std::string& text, plexus::KernelArgInfo& arg, std::string& why) {
  std::size_t end = text.size();
  while (end > 0 && (std::isalnum(static_cast<unsigned char>(text[end - 1])) || text[end - 1] == '_')) --end;
  arg.name = text.substr(end);
  const std::string type = trim(std::string_view(text).substr(0, end));
  if (arg.name.empty() || type.empty()) {
    why = "cannot read the parameter '" + text + "'";
    return false;
  }
  auto has = [&](std::string_view word) {
    const std::size_t at = type.find(word);
    return at != std::string::npos && (at == 0 || !std::isalnum(static_cast<unsigned char>(type[at - 1])));
  };
  if (type.find('*') != std::string::npos) {
    arg.kind = has("local") ? plexus::KernelArgKind::local_pointer
               : has("constant") ? plexus::KernelArgKind::constant_pointer
                                 : plexus::KernelArgKind::global_pointer;
    arg.size = sizeof(void*);  // TODO: the device's pointer size
    return true;
  }
  static const std::map<std::string, std::size_t> sizes = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4}, {"uint", 4},
      {"float", 4}, {"long", 8}, {"ulong", 8}, {"double", 8}, {"size_t", 8}};
  std::string base = type;
  if (base.starts_with("const ")) base = trim(std::string_view(base).substr(6));
  if (base.starts_with("unsigned ")) base = "u" + trim(std::string_view(base).substr(9));
  const auto size = sizes.find(base);
  if (size == sizes.end()) {
    why = "parameter '" + arg.name + "': type '" + type + "' is not known to this compiler";
    return false;
  }
  arg.kind = plexus::KernelArgKind::scalar;
  arg.size = size->second;
  return true;
}

// The kernels of `source`: every "kernel void NAME(...)" / "__kernel void NAME(...)".
bool scan_kernels(const std::string& source, plexus::CompileResult& result) {
  for (std::size_t at = 0; (at = source.find("kernel", at)) != std::string::npos; at += 6) {
    // "kernel" or "__kernel" as a word of its own.
    const std::size_t word = at >= 2 && source.compare(at - 2, 2, "__") == 0 ? at - 2 : at;
    const bool word_start = word == 0 || !(std::isalnum(static_cast<unsigned char>(source[word - 1])) ||
                                           source[word - 1] == '_' || source[word - 1] == '.');
    const std::size_t after = source.find_first_not_of(" \t\r\n", at + 6);
    if (!word_start || after == std::string::npos || source.compare(after, 4, "void") != 0) continue;
    const std::size_t open = source.find('(', after);
    const std::size_t close = source.find(')', open);
    if (open == std::string::npos || close == std::string::npos) break;
    plexus::KernelInfo kernel;
    kernel.name = trim(std::string_view(source).substr(after + 4, open - after - 4));
    std::string parameters = source.substr(open + 1, close - open - 1);
    for (std::size_t from = 0; from <= parameters.size();) {
      std::size_t comma = parameters.find(',', from);
      if (comma == std::string::npos) comma = parameters.size();
      const std::string parameter = trim(std::string_view(parameters).substr(from, comma - from));
      from = comma + 1;
      if (parameter.empty() || parameter == "void") continue;
      plexus::KernelArgInfo arg;
      std::string why;
      if (!parse_parameter(parameter, arg, why)) {
        result.diagnostics.push_back({"kernel.cl", 0, 0, plexus::DiagnosticSeverity::error,
                                      "my_compiler: kernel '" + kernel.name + "': " + why});
        result.log += "kernel.cl: error: " + result.diagnostics.back().message + "\n";
        return false;
      }
      kernel.args.push_back(std::move(arg));
    }
    kernel.uses_barriers = source.find("barrier", open) != std::string::npos;
    kernel.uses_local_memory = source.find("__local", open) != std::string::npos;
    result.kernels.push_back(std::move(kernel));
  }
  return true;
}

}  // namespace

MyCompiler::MyCompiler([[maybe_unused]] plexus::PluginContext& context) {
  // Options come from the config's `[compiler.my_compiler]` table, e.g.
  //   [compiler.my_compiler]
  //   optimization = 2
  // Read every option you support (unread keys are reported as probable typos).
  //
  // TODO: list the formats your compile() produces, e.g.
  //   targets_ = {plexus::BinaryFormat::spirv, plexus::BinaryFormat::ptx};
  targets_ = {plexus::BinaryFormat::opencl_c_source};
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
  if (request.target != plexus::BinaryFormat::opencl_c_source ||
      request.language != plexus::SourceLanguage::opencl_c) {
    throw plexus::error(plexus::error_category::unsupported,
                        "my_compiler: only OpenCL C source to " +
                            std::string(plexus::to_string(plexus::BinaryFormat::opencl_c_source)) +
                            " is implemented, not to " +
                            std::string(plexus::to_string(request.target)));
  }
  // The pass-through: the device's driver builds the source when the module is loaded.
  plexus::CompileResult result;
  result.format = plexus::BinaryFormat::opencl_c_source;
  if (!scan_kernels(request.source, result)) return result;
  if (!request.kernel_name.empty()) {
    std::erase_if(result.kernels, [&](const auto& k) { return k.name != request.kernel_name; });
    if (result.kernels.empty()) {
      result.log = "my_compiler: no kernel named '" + request.kernel_name + "'\n";
      return result;
    }
  }
  const auto* bytes = reinterpret_cast<const std::byte*>(request.source.data());
  result.binary.assign(bytes, bytes + request.source.size());
  result.succeeded = true;
  return result;
}

}  // namespace my_compiler
