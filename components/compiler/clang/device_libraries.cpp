#include "device_libraries.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

namespace plexus::clang_compiler {

DeviceLibraries::DeviceLibraries() = default;
DeviceLibraries::~DeviceLibraries() = default;

const llvm::MemoryBuffer* DeviceLibraries::bytes(const std::string& path, std::string& why) {
  std::lock_guard lock(mutex_);
  auto found = files_.find(path);
  if (found != files_.end()) return found->second.get();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file) {
    why = file.getError().message();
    return nullptr;
  }
  return files_.emplace(path, std::move(*file)).first->second.get();
}

std::unique_ptr<llvm::Module> DeviceLibraries::load(const std::string& path,
                                                    llvm::LLVMContext& context,
                                                    DiagnosticLog& log) {
  std::string why;
  const llvm::MemoryBuffer* buffer = bytes(path, why);
  if (!buffer) {
    log.error("cannot read the device library '" + path + "': " + why +
              " (set `libclc_dir` in [compiler.clang] or PLEXUS_LIBCLC_DIR)");
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::getLazyBitcodeModule(buffer->getMemBufferRef(), context);
  if (!module) {
    log.error("the device library '" + path +
              "' is not valid LLVM bitcode: " + llvm::toString(module.takeError()));
    return nullptr;
  }
  return std::move(*module);
}

}  // namespace plexus::clang_compiler
