#include "input_modules.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <optional>

#include "plexus/error.hpp"
#include "target_conventions.hpp"
#include "work_item_remap.hpp"

namespace plexus::fusion_llvm {

namespace {

bool is_kernel(const llvm::Function& function) {
  if (function.isDeclaration()) return false;
  const auto convention = function.getCallingConv();
  return convention == llvm::CallingConv::SPIR_KERNEL ||
         convention == llvm::CallingConv::PTX_Kernel ||
         convention == llvm::CallingConv::AMDGPU_KERNEL ||
         function.getMetadata("kernel_arg_addr_space") != nullptr ||
         annotated_nvptx_kernel(function);
}

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext& context, const std::vector<std::byte>& bytes,
                                    const std::string& what) {
  const llvm::StringRef data(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(data, what), context);
  if (!parsed)
    throw error(error_category::invalid_argument,
                "fusion: " + what + " is not LLVM bitcode: " + llvm::toString(parsed.takeError()));
  return std::move(*parsed);
}

// Kernel k's module made ready to link (see the header), or why it cannot be fused.
std::optional<std::string> prepare(llvm::Module& module, std::size_t k, const FusionKernel& kernel,
             const FusionPlan& plan) {
  llvm::Function* entry = module.getFunction(kernel.info.name);
  if (!entry || !is_kernel(*entry))
    throw error(error_category::invalid_argument,
                "fusion: kernel " + std::to_string(k) + "'s module does not define the kernel '" +
                    kernel.info.name + "'");
  if (entry->arg_size() != kernel.info.args.size())
    throw error(error_category::invalid_argument,
                "fusion: the kernel '" + kernel.info.name + "' has " +
                    std::to_string(entry->arg_size()) + " parameters in its module, " +
                    std::to_string(kernel.info.args.size()) + " in its KernelInfo");
  std::vector<llvm::Function*> others;
  for (llvm::Function& function : module)
    if (&function != entry && is_kernel(function)) others.push_back(&function);
  for (llvm::Function* other : others) {
    other->replaceAllUsesWith(llvm::PoisonValue::get(other->getType()));
    other->eraseFromParent();
  }
  if (is_nvptx(module)) {
    const PlannedKernel& planned = plan.kernels[k];
    if (planned.remap_sizes || planned.remap_global_id)
      if (std::optional<std::string> intrinsic = work_item_register_read(module))
        return "kernel " + std::to_string(k) + " ('" + kernel.info.name +
               "') runs over a different nd-range than the fused kernel, but its NVPTX IR "
               "reads the work-item registers directly (" + *intrinsic +
               ", the device library already linked), which work-item remapping cannot "
               "rewrite; give its IR before libclc is linked (CompileRequest::emit_ir) or "
               "fuse kernels of identical ranges";
    drop_nvptx_annotations(module);
  }
  remap_work_items(module, plan.kernels[k], plan.range);
  entry->setName(input_function_name(k));
  if (entry->getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
    entry->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  else if (entry->getCallingConv() == llvm::CallingConv::PTX_Kernel)
    entry->setCallingConv(llvm::CallingConv::C);
  entry->removeFnAttr(llvm::Attribute::NoInline);
  entry->removeFnAttr(llvm::Attribute::OptimizeNone);
  entry->addFnAttr(llvm::Attribute::AlwaysInline);
  // Two parameters that fusion makes one value must not stay noalias.
  const std::vector<std::size_t>& args = plan.arg_of[k];
  for (std::size_t p = 0; p < args.size(); ++p)
    for (std::size_t q = 0; q < args.size(); ++q)
      if (p != q && args[p] == args[q]) entry->removeParamAttr(p, llvm::Attribute::NoAlias);
  // The linker skips unreferenced internal definitions: the entry stays external until
  // every input is linked.
  for (llvm::Function& function : module)
    if (!function.isDeclaration() && &function != entry)
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable& global : module.globals())
    if (!global.isDeclaration()) global.setLinkage(llvm::GlobalValue::InternalLinkage);
  return std::nullopt;
}

}  // namespace

std::string input_function_name(std::size_t kernel) {
  return "__plexus_fusion_input_" + std::to_string(kernel);
}

std::variant<std::unique_ptr<llvm::Module>, std::string> link_inputs(
    llvm::LLVMContext& context, const std::vector<const std::vector<std::byte>*>& bitcode,
    const FusionRequest& request, const FusionPlan& plan) {
  std::unique_ptr<llvm::Module> fused;
  std::unique_ptr<llvm::Linker> linker;
  for (std::size_t k = 0; k < bitcode.size(); ++k) {
    std::unique_ptr<llvm::Module> input =
        parse(context, *bitcode[k], "kernel " + std::to_string(k) + " ('" +
                                        request.kernels[k].info.name + "')");
    if (!fused) {
      fused = std::make_unique<llvm::Module>(request.fused_name, context);
      fused->setTargetTriple(input->getTargetTriple());
      fused->setDataLayout(input->getDataLayout());
      linker = std::make_unique<llvm::Linker>(*fused);
    } else if (input->getTargetTriple() != fused->getTargetTriple()) {
      throw error(error_category::invalid_argument,
                  "fusion: kernel " + std::to_string(k) + " is for '" + input->getTargetTriple() +
                      "', kernel 0 for '" + fused->getTargetTriple() + "'");
    }
    if (std::optional<std::string> reason = prepare(*input, k, request.kernels[k], plan))
      return *reason;
    if (linker->linkInModule(std::move(input)))
      throw error(error_category::internal,
                  "fusion: linking kernel " + std::to_string(k) + " into the fused module failed");
  }
  for (std::size_t k = 0; k < bitcode.size(); ++k)
    fused->getFunction(input_function_name(k))->setLinkage(llvm::GlobalValue::InternalLinkage);
  return fused;
}

}  // namespace plexus::fusion_llvm
