#include "program_cache.hpp"

#include "plexus/error.hpp"

namespace plexus::detail {

std::uint64_t source_hash(const std::string& source) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : source) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::shared_ptr<const CompiledProgram> ProgramCache::compile(Compiler& compiler,
                                                             const ProgramKey& key,
                                                             const std::vector<std::string>& options) {
  return programs_.get_or_build(key, [&]() -> std::shared_ptr<const CompiledProgram> {
    CompileRequest request;
    request.language = SourceLanguage::opencl_c;
    request.source = key.source;
    request.options = options;
    request.target = key.format;
    CompileResult result = compiler.compile(request);
    if (!result.succeeded) {
      throw error(error_category::build,
                  "the kernel source does not compile for " + std::string(to_string(key.format)) +
                      (key.options.empty() ? "" : " with options '" + key.options + "'") + ":\n" +
                      result.log);
    }
    auto program = std::make_shared<CompiledProgram>();
    program->binary = std::move(result.binary);
    program->format = result.format;
    program->kernels = std::move(result.kernels);
    return program;
  });
}

std::shared_ptr<DeviceModule> ProgramCache::load(Device& device, const ProgramKey& key,
                                                 const CompiledProgram& program) {
  auto loaded = modules_.get_or_build(ModuleKey{key, &device}, [&] {
    auto value = std::make_shared<LoadedProgram>();
    value->module = device.load_module(program.format, program.binary, program.kernels);
    if (!value->module) {
      throw error(error_category::internal,
                  "device '" + device.info().name + "' loaded no module and reported no error");
    }
    return std::shared_ptr<const LoadedProgram>(std::move(value));
  });
  return loaded->module;
}

}  // namespace plexus::detail
