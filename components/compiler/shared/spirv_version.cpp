#include "spirv_version.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

namespace plexus::compiler_shared {

namespace {

// Capabilities that need a SPIR-V version above 1.0 (SPIR-V specification, section 3.31),
// with the OpenCL C functions that make LLVM 15's translator declare them.
struct VersionedCapability {
  std::uint32_t id;
  const char* name;
  std::uint32_t version;
  const char* functions;
};
constexpr VersionedCapability versioned_capabilities[] = {
    {58, "SubgroupDispatch", 0x00010100, "get_kernel_sub_group_count_for_ndrange and relatives"},
    {59, "NamedBarrier", 0x00010100, "named barriers"},
    {60, "PipeStorage", 0x00010100, "program-scope pipes"},
    {61, "GroupNonUniform", 0x00010300, "the cl_khr_subgroup_* functions"},
    {62, "GroupNonUniformVote", 0x00010300,
     "sub_group_elect, sub_group_non_uniform_all/any/all_equal"},
    {63, "GroupNonUniformArithmetic", 0x00010300,
     "sub_group_non_uniform_reduce_*/scan_* (and sub_group_reduce/scan with -cl-std=CL3.0)"},
    {64, "GroupNonUniformBallot", 0x00010300,
     "sub_group_ballot*, sub_group_broadcast_first, sub_group_non_uniform_broadcast"},
    {65, "GroupNonUniformShuffle", 0x00010300, "sub_group_shuffle, sub_group_shuffle_xor"},
    {66, "GroupNonUniformShuffleRelative", 0x00010300,
     "sub_group_shuffle_up, sub_group_shuffle_down"},
    {67, "GroupNonUniformClustered", 0x00010300, "sub_group_clustered_reduce_*"},
    {68, "GroupNonUniformQuad", 0x00010300, "quad operations"},
};

constexpr std::uint32_t magic = 0x07230203;
constexpr std::uint32_t op_capability = 17;

std::uint32_t swap(std::uint32_t word) {
  return (word >> 24) | ((word >> 8) & 0xff00) | ((word << 8) & 0xff0000) | (word << 24);
}

// "1.2" -> 0x00010200; nullopt unless MAJOR.MINOR with a known SPIR-V 1.x version.
std::optional<std::uint32_t> parse_version(std::string_view text) {
  unsigned major = 0, minor = 0;
  const char* end = text.data() + text.size();
  auto [dot, failed] = std::from_chars(text.data(), end, major);
  if (failed != std::errc() || dot == end || *dot != '.') return std::nullopt;
  auto [after, failed_minor] = std::from_chars(dot + 1, end, minor);
  if (failed_minor != std::errc() || after != end || major != 1 || minor > 6) return std::nullopt;
  return (major << 16) | (minor << 8);
}

}  // namespace

std::string spirv_version_name(std::uint32_t version) {
  return std::to_string((version >> 16) & 0xff) + "." + std::to_string((version >> 8) & 0xff);
}

std::optional<std::uint32_t> spirv_version_limit(std::string_view architecture,
                                                 DiagnosticLog& log) {
  if (architecture.empty()) return spirv_translator_max_version;
  std::optional<std::uint32_t> highest;
  bool all_known = true;
  std::size_t at = 0;
  while (at < architecture.size()) {
    const std::size_t space = std::min(architecture.find(' ', at), architecture.size());
    std::string_view token = architecture.substr(at, space - at);
    at = space + 1;
    if (token.empty()) continue;
    for (std::string_view prefix : {"SPIR-V_", "spirv-", "spirv"}) {
      if (token.starts_with(prefix)) {
        token.remove_prefix(prefix.size());
        break;
      }
    }
    const std::optional<std::uint32_t> version = parse_version(token);
    if (!version) {
      all_known = false;
      continue;
    }
    highest = std::max(highest.value_or(0), *version);
  }
  if (!highest || !all_known) {
    log.error("the spirv target's architecture '" + std::string(architecture) +
              "' names no SPIR-V version: give the highest version the device accepts, as "
              "'spirv1.2' (or its CL_DEVICE_IL_VERSION, 'SPIR-V_1.0 SPIR-V_1.2'), or none for "
              "up to 1.4");
    return std::nullopt;
  }
  return std::min(*highest, spirv_translator_max_version);
}

bool check_spirv_version(std::span<const std::byte> binary, std::uint32_t limit,
                         DiagnosticLog& log) {
  const std::size_t count = binary.size() / 4;
  if (count < 5) {
    log.error("internal: the SPIR-V translator wrote no SPIR-V header");
    return false;
  }
  std::vector<std::uint32_t> words(count);
  std::memcpy(words.data(), binary.data(), count * 4);
  if (words[0] != magic)
    for (std::uint32_t& word : words) word = swap(word);
  const std::uint32_t version = words[1];
  if (version <= limit) return true;
  std::string needs;
  for (std::size_t i = 5; i < count;) {
    const std::uint32_t length = words[i] >> 16, opcode = words[i] & 0xffff;
    if (length == 0) break;
    if (opcode == op_capability && i + 1 < count) {
      for (const VersionedCapability& capability : versioned_capabilities) {
        if (capability.id != words[i + 1] || capability.version <= limit) continue;
        needs += std::string(needs.empty() ? "" : "; ") + capability.functions + " need SPIR-V " +
                 spirv_version_name(capability.version) + " (capability " + capability.name + ")";
      }
    }
    i += length;
  }
  if (needs.empty()) needs = "the module needs SPIR-V " + spirv_version_name(version);
  log.error(needs + "; the target accepts SPIR-V up to " + spirv_version_name(limit) +
            " (the spirv target's architecture)");
  return false;
}

std::optional<std::string> translate_at_lowest_version(
    std::uint32_t limit, const std::function<SpirvAttempt(std::uint32_t)>& translate,
    DiagnosticLog& log) {
  const auto needs_more = [](const SpirvAttempt& attempt) {
    return attempt.failure.find("isAllowedToUseVersion") != std::string::npos;
  };
  const auto checked = [&](const SpirvAttempt& attempt) -> std::optional<std::string> {
    const auto bytes = std::as_bytes(std::span(attempt.spirv.data(), attempt.spirv.size()));
    if (!check_spirv_version(bytes, limit, log)) return std::nullopt;
    return attempt.spirv;
  };
  constexpr std::uint32_t first = 0x00010000, step = 0x00000100;
  SpirvAttempt attempt;
  for (std::uint32_t version = first; version <= limit; version += step) {
    attempt = translate(version);
    if (attempt.succeeded) return checked(attempt);
    if (!needs_more(attempt)) break;
  }
  if (needs_more(attempt) && limit < spirv_translator_max_version) {
    const SpirvAttempt highest = translate(spirv_translator_max_version);
    if (highest.succeeded) return checked(highest);  // above the limit: the error says why
    attempt = highest;
  }
  log.error("the SPIR-V translation failed: " + attempt.failure);
  return std::nullopt;
}

}  // namespace plexus::compiler_shared
