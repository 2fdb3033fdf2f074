#include "host_device.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <thread>

#include "plexus/log.hpp"

namespace plexus::host {
namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

// The first value of each key in /proc/cpuinfo ("model name", "vendor_id", ...). Empty
// when the file is unreadable (non-Linux, restricted container): callers fall back.
std::map<std::string, std::string> read_cpuinfo() {
  std::map<std::string, std::string> fields;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    fields.emplace(trim(std::string_view(line).substr(0, colon)),
                   trim(std::string_view(line).substr(colon + 1)));
  }
  return fields;
}

std::string machine_name() {
  utsname names{};
  if (uname(&names) != 0 || names.machine[0] == '\0') return "unknown";
  return names.machine;
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint32_t logical_cpu_count() {
  if (const unsigned count = std::thread::hardware_concurrency(); count > 0) return count;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<std::uint32_t>(online) : 1;
}

std::string field_or(const std::map<std::string, std::string>& fields, const char* key,
                     std::string fallback) {
  const auto it = fields.find(key);
  return it != fields.end() && !it->second.empty() ? it->second : std::move(fallback);
}

DeviceInfo describe_host_cpu() {
  const auto cpuinfo = read_cpuinfo();
  DeviceInfo info;
  info.architecture = machine_name();
  info.name = field_or(cpuinfo, "model name", info.architecture);
  info.vendor = field_or(cpuinfo, "vendor_id", "unknown");
  info.version = backend_version;
  info.driver_version = backend_version;
  info.type = DeviceType::cpu;
  info.compute_units = logical_cpu_count();
  info.global_memory_bytes = physical_memory_bytes();
  info.formats = {BinaryFormat::llvm_bitcode};
  if (cpuinfo.empty())
    logger().debug("host backend: /proc/cpuinfo is unreadable; CPU named after uname ({})",
                   info.architecture);
  return info;
}

}  // namespace

HostDevice::HostDevice(Backend& backend) : backend_(backend), info_(describe_host_cpu()) {}

}  // namespace plexus::host
