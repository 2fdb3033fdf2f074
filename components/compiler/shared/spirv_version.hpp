// SPIR-V versions of the spirv target: the highest one a device accepts (named by
// CompileRequest::target_architecture) and the lowest one a translated module needs, so
// that a module that needs more than the device accepts is an error naming the features
// and the version they need, never an abort in the translator.
//
// Versions are SPIR-V's header encoding: 0x00MMmm00 (1.3 is 0x00010300).
// Thread-safety: stateless (pure functions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "diagnostic_log.hpp"

namespace plexus::compiler_shared {

// The highest SPIR-V version LLVM 15's translator writes (1.4).
inline constexpr std::uint32_t spirv_translator_max_version = 0x00010400;

// The highest version `architecture` allows: empty means the translator's highest; else
// "spirv1.2", "1.2" or an OpenCL CL_DEVICE_IL_VERSION list ("SPIR-V_1.0 SPIR-V_1.2": the
// highest named). nullopt, with an error in `log`, for anything else.
std::optional<std::uint32_t> spirv_version_limit(std::string_view architecture,
                                                 DiagnosticLog& log);

// "1.3" for 0x00010300.
std::string spirv_version_name(std::uint32_t version);

// Whether the SPIR-V module in `binary` declares a version up to `limit`; when not, an
// error naming the version, the capabilities that need it and the OpenCL C functions
// behind them ("sub_group_shuffle ... needs SPIR-V 1.3 (capability GroupNonUniformShuffle);
// the target accepts up to 1.0").
bool check_spirv_version(std::span<const std::byte> binary, std::uint32_t limit,
                         DiagnosticLog& log);

// One run of the translator allowing versions up to `max_version`: the SPIR-V, or why not
// (its message; Debian's build asserts "isAllowedToUseVersion" when the module needs more).
struct SpirvAttempt {
  bool succeeded = false;
  std::string spirv;
  std::string failure;
};

// The module in the lowest SPIR-V version the translator can write it in, up to `limit`:
// `translate` is tried allowing 1.0, then each higher version up to the limit (given room,
// the translator declares a version above what the module needs, 1.4 for C++ for OpenCL).
// When none up to the limit works, a translation allowing 1.4 says which features need
// more (check_spirv_version's error). Errors go to `log`, the translator's message in them.
std::optional<std::string> translate_at_lowest_version(
    std::uint32_t limit, const std::function<SpirvAttempt(std::uint32_t max_version)>& translate,
    DiagnosticLog& log);

}  // namespace plexus::compiler_shared
