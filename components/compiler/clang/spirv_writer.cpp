#include "spirv_writer.hpp"

#include <LLVMSPIRVLib.h>
#include <llvm/IR/Module.h>

#include <cstring>
#include <sstream>

#include "plexus/isolated_call.hpp"
#include "spirv_translator_input.hpp"
#include "spirv_version.hpp"

namespace plexus::clang_compiler {

std::optional<std::vector<std::byte>> write_spirv(llvm::Module& module,
                                                  std::uint32_t version_limit,
                                                  DiagnosticLog& log) {
  compiler_shared::prepare_for_spirv_translator(module);
  const auto translate = [&](std::uint32_t max_version) {
    const IsolatedResult translated = run_isolated([&](std::string& output, std::string& message) {
      std::ostringstream stream;
      SPIRV::TranslatorOpts options(static_cast<SPIRV::VersionNumber>(max_version));
      std::string why;
      if (!llvm::writeSpirv(&module, options, stream, why)) {
        message = why;
        return false;
      }
      output = stream.str();
      return true;
    });
    return compiler_shared::SpirvAttempt{translated.succeeded, translated.output,
                                         translated.failure};
  };
  const std::optional<std::string> spirv =
      compiler_shared::translate_at_lowest_version(version_limit, translate, log);
  if (!spirv) return std::nullopt;
  std::vector<std::byte> bytes(spirv->size());
  if (!bytes.empty()) std::memcpy(bytes.data(), spirv->data(), bytes.size());
  return bytes;
}

}  // namespace plexus::clang_compiler
