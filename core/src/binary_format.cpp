#include "plexus/binary_format.hpp"

#include <array>
#include <utility>

#include "plexus/device_info.hpp"

namespace plexus {

namespace {
constexpr std::array<std::pair<BinaryFormat, std::string_view>, 7> format_names = {{
    {BinaryFormat::llvm_bitcode, "llvm-bitcode"},
    {BinaryFormat::spirv, "spirv"},
    {BinaryFormat::spir_bitcode, "spir-bitcode"},
    {BinaryFormat::ptx, "ptx"},
    {BinaryFormat::amdgcn, "amdgcn"},
    {BinaryFormat::opencl_c_source, "opencl-c-source"},
    {BinaryFormat::native, "native"},
}};
}  // namespace

std::string_view to_string(BinaryFormat format) {
  for (const auto& [value, name] : format_names) {
    if (value == format) return name;
  }
  return "unknown";
}

std::optional<BinaryFormat> parse_binary_format(std::string_view text) {
  for (const auto& [value, name] : format_names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::string_view to_string(DeviceType type) {
  switch (type) {
    case DeviceType::cpu: return "cpu";
    case DeviceType::gpu: return "gpu";
    case DeviceType::accelerator: return "accelerator";
    case DeviceType::other: return "other";
  }
  return "other";
}

}  // namespace plexus
