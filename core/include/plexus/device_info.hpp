// DeviceInfo: what a backend reports about one device. Plain data, copyable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/export.hpp"

namespace plexus {

enum class DeviceType { cpu, gpu, accelerator, other };

PLEXUS_API std::string_view to_string(DeviceType type);

struct DeviceInfo {
  std::string name;
  std::string vendor;
  std::string version;         // device or API version as the driver reports it
  std::string driver_version;
  std::string architecture;    // "sm_90", "x86-64", PoCL's "skylake-avx512", ...
  DeviceType type = DeviceType::other;
  std::uint32_t compute_units = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t local_memory_bytes = 0;
  std::uint64_t max_work_group_size = 0;
  std::vector<BinaryFormat> formats;  // loadable code formats, most preferred first
  // The highest SPIR-V version the device loads ("1.2"; from OpenCL's CL_DEVICE_IL_VERSION),
  // empty when it loads no SPIR-V or does not say. Runtime::build compiles SPIR-V for it
  // with target_architecture "spirv" + this.
  std::string spirv_version;
};

}  // namespace plexus
