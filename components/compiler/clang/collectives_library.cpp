#include "collectives_library.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <vector>

namespace plexus::clang_compiler {

std::string_view collectives_source() {
  return "// Plexus's precompiled SYCL collectives (compiler/clang, collectives_library.hpp).\n"
         "#include <sycl/sycl.hpp>\n"
         "PLEXUS_SYCL_LIBRARY_COLLECTIVES(PLEXUS_SYCL_LIBRARY_DEFINE)\n";
}

bool links_collectives(const CompileRequest& request) {
  return request.language == SourceLanguage::sycl;
}

bool calls_collectives(const llvm::Module& module) {
  // sycl::detail::library_reduce / library_scan, mangled.
  for (const llvm::Function& function : module)
    if (function.isDeclaration() &&
        (function.getName().startswith("_ZN4sycl6detail14library_reduce") ||
         function.getName().startswith("_ZN4sycl6detail12library_scan")))
      return true;
  return false;
}

bool link_collectives(llvm::Module& module, std::string_view bitcode, DiagnosticLog& log) {
  llvm::Expected<std::unique_ptr<llvm::Module>> library = llvm::getLazyBitcodeModule(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "collectives"),
      module.getContext());
  if (!library) {
    log.error("internal: the precompiled SYCL collectives do not parse: " +
              llvm::toString(library.takeError()));
    return false;
  }
  std::vector<std::string> defined;
  for (llvm::Function& function : **library)
    if (!function.isDeclaration()) defined.push_back(function.getName().str());
  std::vector<llvm::NamedMDNode*> named;
  for (llvm::NamedMDNode& node : (*library)->named_metadata())
    if (node.getName() != "llvm.module.flags") named.push_back(&node);
  for (llvm::NamedMDNode* node : named) (*library)->eraseNamedMetadata(node);
  if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded)) {
    log.error("internal: the precompiled SYCL collectives do not link into the module");
    return false;
  }
  for (const std::string& name : defined)
    if (llvm::Function* function = module.getFunction(name); function && !function->isDeclaration())
      function->setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

}  // namespace plexus::clang_compiler
