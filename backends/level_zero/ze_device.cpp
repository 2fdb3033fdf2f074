// ZeDevice's discovery: the properties a DeviceInfo reports, the compute queue group, the
// timer; module loading and queues.
#include "ze_device.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "plexus/error.hpp"
#include "ze_module.hpp"
#include "ze_queue.hpp"

namespace plexus::level_zero {
namespace {

DeviceType device_type(ze_device_type_t type) {
  switch (type) {
    case ZE_DEVICE_TYPE_GPU:
      return DeviceType::gpu;
    case ZE_DEVICE_TYPE_CPU:
      return DeviceType::cpu;
    case ZE_DEVICE_TYPE_FPGA:
    case ZE_DEVICE_TYPE_VPU:
    case ZE_DEVICE_TYPE_MCA:
      return DeviceType::accelerator;
    default:
      return DeviceType::other;
  }
}

std::string vendor_name(std::uint32_t vendor_id) {
  switch (vendor_id) {
    case 0x8086:
      return "Intel";
    case 0x1002:
      return "AMD";
    case 0x10de:
      return "NVIDIA";
    default: {
      char text[32];
      std::snprintf(text, sizeof text, "PCI vendor 0x%04x", vendor_id);
      return text;
    }
  }
}

// A list property query: `get(count, nullptr)` for the count, then `get(count, items)` with
// each item's stype set to `type`.
template <class T, class Get>
std::vector<T> query_all(ze_structure_type_t type, const char* call, const Get& get) {
  std::uint32_t count = 0;
  ZeLoader::check(call, get(&count, nullptr));
  std::vector<T> items(count);
  for (T& item : items) item.stype = type;
  if (count > 0) ZeLoader::check(call, get(&count, items.data()));
  items.resize(count);
  return items;
}

std::string hex(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04x", value);
  return text;
}

}  // namespace

ZeDevice::ZeDevice(Backend& backend, const ZeDriver& driver, ze_device_handle_t device)
    : backend_(backend), driver_(driver), device_(device) {
  const ZeLoader& loader = driver.loader();
  const bool api_1_2 = driver.api_version() >= ZE_API_VERSION_1_2;
  ze_device_properties_t properties{};
  // From API 1.2 timerResolution is in cycles per second (more precise), before in ns.
  properties.stype =
      api_1_2 ? ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 : ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ZeLoader::check("zeDeviceGetProperties", loader.device_get_properties(device, &properties));
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  ZeLoader::check("zeDeviceGetComputeProperties",
                  loader.device_get_compute_properties(device, &compute));
  ze_device_module_properties_t module{};
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  ZeLoader::check("zeDeviceGetModuleProperties",
                  loader.device_get_module_properties(device, &module));

  const auto memory = query_all<ze_device_memory_properties_t>(
      ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, "zeDeviceGetMemoryProperties",
      [&](std::uint32_t* count, ze_device_memory_properties_t* items) {
        return loader.device_get_memory_properties(device, count, items);
      });
  std::uint64_t total = 0;
  for (const auto& each : memory) total += each.totalSize;

  ze_device_memory_access_properties_t access{};
  access.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES;
  ZeLoader::check("zeDeviceGetMemoryAccessProperties",
                  loader.device_get_memory_access_properties(device, &access));
  host_usm_ = access.hostAllocCapabilities != 0;
  shared_usm_ = access.sharedSingleDeviceAllocCapabilities != 0;

  const auto group = query_all<ze_command_queue_group_properties_t>(
      ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, "zeDeviceGetCommandQueueGroupProperties",
      [&](std::uint32_t* count, ze_command_queue_group_properties_t* items) {
        return loader.device_get_command_queue_group_properties(device, count, items);
      });
  const auto groups = static_cast<std::uint32_t>(group.size());
  bool found = false;
  for (std::uint32_t g = 0; g < groups && !found; ++g)
    if (group[g].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      compute_ordinal_ = g;
      max_fill_pattern_ = group[g].maxMemoryFillPatternSize;
      found = true;
    }
  if (!found)
    throw error(error_category::device, std::string("Level Zero device '") + properties.name +
                                            "' has no compute command queue group");

  if (api_1_2 && properties.timerResolution > 0)
    clock_.ns_per_tick = 1e9 / static_cast<double>(properties.timerResolution);
  else if (properties.timerResolution > 0)
    clock_.ns_per_tick = static_cast<double>(properties.timerResolution);
  clock_.kernel_valid_bits = properties.kernelTimestampValidBits;
  clock_.global_valid_bits = properties.timestampValidBits;

  info_.name = properties.name;
  info_.vendor = vendor_name(properties.vendorId);
  info_.version = "Level Zero " + driver.api_version_text();
  info_.driver_version = driver.driver_version_text();
  // The PCI device id names the GPU model (Level Zero 1.4 has no portable architecture name).
  info_.architecture = "device " + hex(properties.deviceId);
  info_.type = device_type(properties.type);
  const std::uint32_t units =
      properties.numSlices * properties.numSubslicesPerSlice * properties.numEUsPerSubslice;
  info_.compute_units = units > 0 ? units : 1;
  info_.global_memory_bytes = total;
  info_.local_memory_bytes = compute.maxSharedLocalMemory;
  info_.max_work_group_size = compute.maxTotalGroupSize;
  info_.formats = {BinaryFormat::spirv};
  if (module.spirvVersionSupported != 0)
    info_.spirv_version = std::to_string(ZE_MAJOR_VERSION(module.spirvVersionSupported)) + "." +
                          std::to_string(ZE_MINOR_VERSION(module.spirvVersionSupported));

  events_ = std::make_unique<ZeEventPool>(loader, context(), device_, false);
  timestamp_events_ = std::make_unique<ZeEventPool>(loader, context(), device_, true);
}

ZeDevice::~ZeDevice() {
  timestamp_events_.reset();
  events_.reset();
}

std::shared_ptr<DeviceModule> ZeDevice::load_module(BinaryFormat format,
                                                    std::span<const std::byte> binary,
                                                    const std::vector<KernelInfo>& kernels) {
  if (format != BinaryFormat::spirv)
    throw error(error_category::unsupported, "Level Zero device '" + info_.name +
                                                 "' does not load " +
                                                 std::string(to_string(format)) +
                                                 " code; it loads: spirv");
  if (binary.empty())
    throw error(error_category::invalid_argument,
                "load_module on Level Zero device '" + info_.name + "': the SPIR-V is empty");
  for (const KernelInfo& kernel : kernels)
    if (kernel.cancellable)
      throw error(error_category::unsupported,
                  "Level Zero device '" + info_.name + "': kernel '" + kernel.name +
                      "' was built cancellable (cancel = \"work_group\", PLEXUS_KERNEL_CANCEL): "
                      "the level_zero backend does not pass its cancel cell; build it without "
                      "that option");
  return std::make_shared<ZeModule>(*this, binary, kernels);
}

std::unique_ptr<DeviceQueue> ZeDevice::create_queue() { return std::make_unique<ZeQueue>(*this); }

}  // namespace plexus::level_zero
