#include "untrusted_bitcode.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "plexus/isolated_call.hpp"

namespace plexus::compiler_shared {

namespace {

llvm::Expected<std::unique_ptr<llvm::Module>> parse(std::string_view bytes,
                                                    llvm::LLVMContext& context) {
  return llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bytes.data(), bytes.size()), "input.bc"), context);
}

}  // namespace

std::unique_ptr<llvm::Module> parse_untrusted_bitcode(std::string_view bytes,
                                                      llvm::LLVMContext& context,
                                                      std::string& problem) {
  // In the child: a copy of `context`, so the parent's is untouched.
  const IsolatedResult checked = run_isolated([&](std::string&, std::string& message) {
    llvm::Expected<std::unique_ptr<llvm::Module>> module = parse(bytes, context);
    if (!module) {
      message = "not valid LLVM bitcode: " + llvm::toString(module.takeError());
      return false;
    }
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (llvm::verifyModule(**module, &stream)) {
      message = "not valid LLVM IR: " + stream.str();
      return false;
    }
    return true;
  });
  if (!checked.succeeded) {
    problem = checked.failure.starts_with("not valid")
                  ? checked.failure
                  : "not valid LLVM bitcode: LLVM's bitcode reader failed on it (" +
                        checked.failure + ")";
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> module = parse(bytes, context);
  if (!module) {
    problem = "not valid LLVM bitcode: " + llvm::toString(module.takeError());
    return nullptr;
  }
  return std::move(*module);
}

}  // namespace plexus::compiler_shared
