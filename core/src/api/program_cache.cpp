#include "program_cache.hpp"

#include "bundle_state.hpp"
#include "plexus/error.hpp"
#include "trace/tracer.hpp"

namespace plexus::detail {

namespace {

std::uint64_t metadata_bytes(const KernelInfo& kernel) {
  std::uint64_t bytes = sizeof(KernelInfo) + kernel.name.size();
  for (const KernelArgInfo& arg : kernel.args) bytes += sizeof(KernelArgInfo) + arg.name.size();
  return bytes;
}

std::uint64_t metadata_bytes(const std::vector<KernelInfo>& kernels) {
  std::uint64_t bytes = 0;
  for (const KernelInfo& kernel : kernels) bytes += metadata_bytes(kernel);
  return bytes;
}

std::uint64_t size_of_program(const CompiledProgram& program) {
  return program.binary.size() + metadata_bytes(program.kernels);
}

std::uint64_t size_of_module(const LoadedProgram& loaded) { return loaded.bytes; }

std::uint64_t size_of_fusion(const FusionResult& result) {
  std::uint64_t bytes =
      result.binary.size() + result.ir.size() + result.reason.size() +
      metadata_bytes(result.kernel) +
      (result.arg_identities.size() + result.promoted.size()) * sizeof(std::uint32_t);
  for (const std::string& warning : result.warnings) bytes += warning.size();
  return bytes;
}

// The program a successful compile produced.
std::shared_ptr<const CompiledProgram> program_of(CompileResult&& result) {
  auto program = std::make_shared<CompiledProgram>();
  program->binary = std::move(result.binary);
  program->format = result.format;
  program->kernels = std::move(result.kernels);
  return program;
}

std::uint64_t size_of_bundle(const BundleState& bundle) {
  std::uint64_t bytes = metadata_bytes(bundle.kernels) + bundle.source.size();
  for (const BundleImage& image : bundle.images) bytes += image.bytes.size();
  return bytes;
}

}  // namespace

ProgramCache::ProgramCache(std::uint64_t max_bytes)
    : programs_(max_bytes, size_of_program),
      modules_(max_bytes, size_of_module),
      fused_(max_bytes, size_of_fusion),
      bundles_(max_bytes, size_of_bundle) {}

std::string properties_key(const BuildProperties& properties) {
  if (properties.language == SourceLanguage::opencl_c && properties.include_files.empty() &&
      properties.registered_names.empty())
    return {};
  std::string key = "language " + std::to_string(static_cast<int>(properties.language));
  const auto add = [&key](const std::string& field) {
    key += ' ' + std::to_string(field.size()) + ':' + field;
  };
  key += " includes " + std::to_string(properties.include_files.size());
  for (const VirtualFile& file : properties.include_files) {
    add(file.name);
    add(file.content);
  }
  key += " registered " + std::to_string(properties.registered_names.size());
  for (const std::string& name : properties.registered_names) add(name);
  return key;
}

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
    if (key.build) {
      request.language = key.build->language;
      request.includes = key.build->include_files;
      request.registered_names = key.build->registered_names;
    }
    request.source = key.source;
    request.options = options;
    request.target = key.format;
    request.target_architecture = key.architecture;  // the device's: sm_XX, gfxN, spirv1.N
    request.emit_ir = key.emit_ir;
    TraceSpanScope traced(TraceSpan::Kind::compile, "",
                          std::string(to_string(key.format)) + (key.emit_ir ? " (LLVM IR)" : "") +
                              (key.options.empty() ? "" : ", options '" + key.options + "'"),
                          key.source.size());
    CompileResult result = compiler.compile(request);
    if (!result.succeeded) {
      throw error(error_category::build,
                  "the kernel source does not compile for " + std::string(to_string(key.format)) +
                      (key.emit_ir ? " (its LLVM IR)" : "") +
                      (key.options.empty() ? "" : " with options '" + key.options + "'") + ":\n" +
                      result.log);
    }
    return program_of(std::move(result));
  });
}

ProgramKey image_key(std::span<const std::byte> bytes, BinaryFormat from, BinaryFormat to,
                     const std::string& architecture) {
  std::uint64_t fnv = 1469598103934665603ull;
  std::uint64_t mix = 0x9e3779b97f4a7c15ull;  // a second, independent hash
  for (std::byte b : bytes) {
    fnv = (fnv ^ static_cast<unsigned char>(b)) * 1099511628211ull;
    mix = (mix ^ static_cast<unsigned char>(b)) * 0xff51afd7ed558ccdull + 0x2545f4914f6cdd1dull;
  }
  ProgramKey key;
  key.source_hash = fnv;
  key.options = "image " + std::string(to_string(from)) + " " + std::to_string(bytes.size()) +
                " " + std::to_string(mix);
  key.format = to;
  key.architecture = architecture;
  return key;
}

std::shared_ptr<const CompiledProgram> ProgramCache::translate(Compiler& compiler,
                                                               const ProgramKey& key,
                                                               SourceLanguage language,
                                                               std::span<const std::byte> bytes) {
  return programs_.get_or_build(key, [&]() -> std::shared_ptr<const CompiledProgram> {
    CompileRequest request;
    request.language = language;
    request.source.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    request.target = key.format;
    request.target_architecture = key.architecture;
    TraceSpanScope traced(TraceSpan::Kind::translate, "",
                          "an image to " + std::string(to_string(key.format)),
                          bytes.size());
    CompileResult result = compiler.compile(request);
    if (!result.succeeded) {
      throw error(error_category::build, "the image does not compile to " +
                                             std::string(to_string(key.format)) + ":\n" +
                                             result.log);
    }
    return program_of(std::move(result));
  });
}

std::shared_ptr<DeviceModule> ProgramCache::load(Device& device, const ProgramKey& key,
                                                 const CompiledProgram& program) {
  auto loaded = modules_.get_or_build(ModuleKey{key, &device}, [&] {
    auto value = std::make_shared<LoadedProgram>();
    TraceSpanScope traced(TraceSpan::Kind::load_module, device.info().name,
                          std::string(to_string(program.format)), program.binary.size());
    value->module = device.load_module(program.format, program.binary, program.kernels);
    value->bytes = size_of_program(program);
    if (!value->module) {
      throw error(error_category::internal,
                  "device '" + device.info().name + "' loaded no module and reported no error");
    }
    return std::shared_ptr<const LoadedProgram>(std::move(value));
  });
  return loaded->module;
}

std::shared_ptr<const FusionResult> ProgramCache::fuse(FusionEngine& engine, const std::string& key,
                                                      const FusionRequest& request) {
  return fused_.get_or_build(key, [&] {
    TraceSpanScope traced(TraceSpan::Kind::fuse, "",
                          std::to_string(request.kernels.size()) + " kernels into " +
                              request.fused_name + " (" + std::string(to_string(request.target)) +
                              ")");
    return std::make_shared<const FusionResult>(engine.fuse(request));
  });
}

}  // namespace plexus::detail
