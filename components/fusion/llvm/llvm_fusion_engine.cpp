#include "llvm_fusion_engine.hpp"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <variant>

#include "fusion_pipeline.hpp"
#include "fusion_plan.hpp"
#include "input_modules.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::fusion_llvm {

namespace {

bool is_spir_format(BinaryFormat format) {
  return format == BinaryFormat::spir_bitcode || format == BinaryFormat::spirv;
}

std::string source_of(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// What kernel inputs a target takes, for messages.
std::string inputs_for(BinaryFormat target) {
  if (target == BinaryFormat::ptx)
    return "PTX is fused from the kernels' NVPTX LLVM bitcode (the compiler's output for ptx "
           "with CompileRequest::emit_ir); SPIR's address spaces (constant 2, generic 4) are "
           "not NVPTX's (constant 4, generic 0) and SPIR inputs are not retargeted";
  if (target == BinaryFormat::llvm_bitcode) return "host bitcode is fused from host bitcode";
  return "SPIR bitcode and SPIR-V are fused from SPIR bitcode or SPIR-V";
}

// The inputs' bitcode: host, NVPTX or SPIR bitcode as given, SPIR-V turned into SPIR
// bitcode.
std::vector<std::vector<std::byte>> translated_inputs(const FusionRequest& request,
                                                      Compiler& compiler) {
  std::vector<std::vector<std::byte>> translated(request.kernels.size());
  const bool from_bitcode =
      request.target == BinaryFormat::llvm_bitcode || request.target == BinaryFormat::ptx;
  if (request.target == BinaryFormat::amdgcn)
    throw error(error_category::unsupported,
                "fusion 'llvm' does not produce amdgcn: Plexus has no AMD backend to run or "
                "test it on");
  if (!from_bitcode && !is_spir_format(request.target))
    throw error(error_category::unsupported,
                "fusion 'llvm' produces llvm_bitcode, spir_bitcode, spirv or ptx, not " +
                    std::string(to_string(request.target)));
  for (std::size_t k = 0; k < request.kernels.size(); ++k) {
    const FusionKernel& kernel = request.kernels[k];
    const bool fits =
        from_bitcode ? kernel.format == BinaryFormat::llvm_bitcode : is_spir_format(kernel.format);
    if (!fits)
      throw error(error_category::unsupported,
                  "fusion: kernel " + std::to_string(k) + " is " +
                      std::string(to_string(kernel.format)) + ", which cannot be fused into " +
                      std::string(to_string(request.target)) + ": " +
                      inputs_for(request.target));
    if (kernel.format != BinaryFormat::spirv) continue;
    CompileRequest translate;
    translate.language = SourceLanguage::spirv;
    translate.source = source_of(kernel.binary);
    translate.target = BinaryFormat::spir_bitcode;
    CompileResult result = compiler.compile(translate);
    if (!result.succeeded)
      throw error(error_category::invalid_argument,
                  "fusion: kernel " + std::to_string(k) + "'s SPIR-V does not translate: " +
                      result.log);
    translated[k] = std::move(result.binary);
  }
  return translated;
}

std::vector<std::byte> bitcode_of(const llvm::Module& module) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::WriteBitcodeToFile(module, stream);
  std::vector<std::byte> bytes(buffer.size());
  std::memcpy(bytes.data(), buffer.data(), buffer.size());
  return bytes;
}

}  // namespace

LlvmFusionEngine::LlvmFusionEngine(PluginContext& context)
    : compiler_(context.components.compiler()) {}

LlvmFusionEngine::~LlvmFusionEngine() = default;

FusionResult LlvmFusionEngine::fuse(const FusionRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  FusionResult result;
  result.format = request.target;
  std::variant<FusionPlan, std::string> planned = plan_fusion(request);
  if (auto* reason = std::get_if<std::string>(&planned)) {
    result.reason = *reason;
    return result;
  }
  const FusionPlan& plan = std::get<FusionPlan>(planned);
  if (!compiler_)
    throw error(error_category::config,
                "fusion 'llvm' needs a compiler component: select one in [compiler]");
  const std::vector<std::vector<std::byte>> translated = translated_inputs(request, *compiler_);
  std::vector<const std::vector<std::byte>*> inputs;
  for (std::size_t k = 0; k < request.kernels.size(); ++k)
    inputs.push_back(request.kernels[k].format == BinaryFormat::spirv ? &translated[k]
                                                                      : &request.kernels[k].binary);

  std::vector<std::byte> bitcode;
  PipelineOutcome outcome;
  {
    llvm::LLVMContext context;
    std::variant<std::unique_ptr<llvm::Module>, std::string> linked =
        link_inputs(context, inputs, request, plan);
    if (auto* reason = std::get_if<std::string>(&linked)) {
      result.reason = std::move(*reason);
      return result;
    }
    std::unique_ptr<llvm::Module> module = std::move(std::get<0>(linked));
    outcome = run_fusion_pipeline(*module, plan, request.barrier, request.fused_name);
    if (request.keep_ir) {
      llvm::raw_string_ostream stream(result.ir);
      module->print(stream, nullptr);
    }
    bitcode = bitcode_of(*module);
  }
  const auto fused_at = std::chrono::steady_clock::now();

  CompileRequest compile;
  compile.language = SourceLanguage::llvm_bitcode;
  compile.source = source_of(bitcode);
  compile.source_name = request.fused_name + ".bc";
  compile.target = request.target;
  compile.target_architecture = request.target_architecture;
  CompileResult compiled = compiler_->compile(compile);
  if (!compiled.succeeded) {
    result.reason = "the fused module does not compile to " +
                    std::string(to_string(request.target)) + ": " + compiled.log;
    return result;
  }
  const auto kernel = std::find_if(compiled.kernels.begin(), compiled.kernels.end(),
                                   [&](const KernelInfo& k) { return k.name == request.fused_name; });
  if (kernel == compiled.kernels.end())
    throw error(error_category::internal,
                "fusion: the compiler does not report the fused kernel '" + request.fused_name + "'");
  result.kernel = *kernel;
  result.binary = std::move(compiled.binary);
  result.range = plan.range;
  for (std::size_t a : outcome.kept) result.arg_identities.push_back(plan.args[a].identity);
  for (std::size_t a = 0; a < plan.args.size(); ++a)
    if (plan.args[a].promotion != Promotion::none &&
        std::find(outcome.kept.begin(), outcome.kept.end(), a) == outcome.kept.end())
      result.promoted.push_back(plan.args[a].identity);
  result.warnings = plan.warnings;
  result.warnings.insert(result.warnings.end(), outcome.refusals.begin(), outcome.refusals.end());
  if (result.kernel.args.size() != result.arg_identities.size())
    throw error(error_category::internal, "fusion: the fused kernel's arguments do not match");
  result.fused = true;
  using ms = std::chrono::duration<double, std::milli>;
  logger().debug("fusion llvm: {} kernels -> '{}': passes {:.2f} ms, compile {:.2f} ms",
                 request.kernels.size(), request.fused_name, ms(fused_at - start).count(),
                 ms(std::chrono::steady_clock::now() - fused_at).count());
  return result;
}

}  // namespace plexus::fusion_llvm
