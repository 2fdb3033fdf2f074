#include "device_libraries.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace plexus::clang_compiler {

// Members in construction order: the module refers to the bytes and lives in the context.
struct DeviceLibraries::Library {
  std::mutex mutex;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::MemoryBuffer> bytes;
  std::unique_ptr<llvm::Module> module;                  // lazily materialized
  std::unordered_map<std::string, std::string> subsets;  // needed names -> bitcode
};

namespace {

constexpr std::size_t max_cached_subsets = 512;

// Every global value `root` uses, transitively, materializing function bodies as it goes.
llvm::Error collect_closure(llvm::GlobalValue* root,
                            llvm::SmallPtrSetImpl<const llvm::GlobalValue*>& closure) {
  std::vector<llvm::GlobalValue*> pending{root};
  llvm::SmallPtrSet<const llvm::Constant*, 32> seen_constants;
  std::vector<const llvm::Constant*> constants;
  auto visit = [&](const llvm::Value* value) {
    if (auto* global = llvm::dyn_cast<llvm::GlobalValue>(value)) {
      pending.push_back(const_cast<llvm::GlobalValue*>(global));
    } else if (auto* constant = llvm::dyn_cast<llvm::Constant>(value)) {
      if (seen_constants.insert(constant).second) constants.push_back(constant);
    }
  };
  while (!pending.empty() || !constants.empty()) {
    if (!constants.empty()) {
      const llvm::Constant* constant = constants.back();
      constants.pop_back();
      for (const llvm::Value* operand : constant->operands()) visit(operand);
      continue;
    }
    llvm::GlobalValue* global = pending.back();
    pending.pop_back();
    if (!closure.insert(global).second) continue;
    if (auto* function = llvm::dyn_cast<llvm::Function>(global)) {
      if (llvm::Error error = function->materialize()) return error;
      for (const llvm::Instruction& instruction : llvm::instructions(*function))
        for (const llvm::Value* operand : instruction.operands()) visit(operand);
    } else if (auto* variable = llvm::dyn_cast<llvm::GlobalVariable>(global)) {
      if (variable->hasInitializer()) visit(variable->getInitializer());
    } else if (auto* alias = llvm::dyn_cast<llvm::GlobalAlias>(global)) {
      visit(alias->getAliasee());
    }
  }
  return llvm::Error::success();
}

// The bitcode of the part of `library` that defines `roots`, without unused declarations.
llvm::Expected<std::string> cut_out(llvm::Module& library,
                                    const std::vector<llvm::GlobalValue*>& roots) {
  llvm::SmallPtrSet<const llvm::GlobalValue*, 32> closure;
  for (llvm::GlobalValue* root : roots)
    if (llvm::Error error = collect_closure(root, closure)) return error;
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> subset = llvm::CloneModule(
      library, map, [&](const llvm::GlobalValue* value) { return closure.contains(value); });
  for (llvm::Function& function : llvm::make_early_inc_range(subset->functions()))
    if (function.isDeclaration() && function.use_empty()) function.eraseFromParent();
  for (llvm::GlobalVariable& variable : llvm::make_early_inc_range(subset->globals()))
    if (variable.isDeclaration() && variable.use_empty()) variable.eraseFromParent();
  std::string bitcode;
  llvm::raw_string_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(*subset, stream);
  stream.flush();
  return bitcode;
}

}  // namespace

DeviceLibraries::DeviceLibraries() = default;
DeviceLibraries::~DeviceLibraries() = default;

DeviceLibraries::Library& DeviceLibraries::library(const std::string& path) {
  std::lock_guard lock(mutex_);
  std::unique_ptr<Library>& library = libraries_[path];
  if (!library) library = std::make_unique<Library>();
  return *library;
}

bool DeviceLibraries::subset_for(const llvm::Module& module, const std::string& path,
                                 std::unique_ptr<llvm::Module>& subset, DiagnosticLog& log) {
  subset.reset();
  Library& library = this->library(path);
  std::string bitcode;
  {
    std::lock_guard lock(library.mutex);
    if (!library.module) {  // first use, or an earlier attempt failed: (re)read the file
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
          llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!file) {
        log.error("cannot read the device library '" + path + "': " + file.getError().message() +
                  " (set `libclc_dir` in [compiler.clang] or PLEXUS_LIBCLC_DIR)");
        return false;
      }
      llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
          llvm::getOwningLazyBitcodeModule(std::move(*file), library.context);
      if (!parsed) {
        log.error("the device library '" + path +
                  "' is not valid LLVM bitcode: " + llvm::toString(parsed.takeError()));
        return false;
      }
      library.module = std::move(*parsed);
    }
    // The roots: what the module declares and the library defines, in a stable order.
    std::vector<llvm::GlobalValue*> roots;
    for (const llvm::GlobalValue& value : module.global_values()) {
      if (!value.isDeclaration() || value.getName().startswith("llvm.")) continue;
      llvm::GlobalValue* defined = library.module->getNamedValue(value.getName());
      if (defined && !defined->isDeclaration() && !defined->hasLocalLinkage())
        roots.push_back(defined);
    }
    if (roots.empty()) return true;
    std::sort(roots.begin(), roots.end(),
              [](const llvm::GlobalValue* a, const llvm::GlobalValue* b) {
                return a->getName() < b->getName();
              });
    std::string key;
    for (const llvm::GlobalValue* root : roots) key += root->getName().str() + '\n';
    auto cached = library.subsets.find(key);
    if (cached == library.subsets.end()) {
      llvm::Expected<std::string> cut = cut_out(*library.module, roots);
      if (!cut) {
        log.error("reading the device library '" + path +
                  "' failed: " + llvm::toString(cut.takeError()));
        return false;
      }
      if (library.subsets.size() >= max_cached_subsets) library.subsets.clear();
      cached = library.subsets.emplace(std::move(key), std::move(*cut)).first;
    }
    bitcode = cached->second;
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bitcode, path), const_cast<llvm::LLVMContext&>(module.getContext()));
  if (!parsed) {
    log.error("the part of the device library '" + path +
              "' this module needs could not be parsed: " + llvm::toString(parsed.takeError()));
    return false;
  }
  subset = std::move(*parsed);
  return true;
}

}  // namespace plexus::clang_compiler
