#include "host_device.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <thread>

#include "host_module.hpp"
#include "host_queue.hpp"
#include "plexus/error.hpp"
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

constexpr std::size_t allocation_alignment = 64;

std::string core_range(const std::vector<int>& cpus) {
  if (cpus.empty()) return "";
  return std::to_string(cpus.front()) + "-" + std::to_string(cpus.back());
}

DeviceInfo describe_host_cpu(const CoreShare& share) {
  const auto cpuinfo = read_cpuinfo();
  DeviceInfo info;
  info.architecture = machine_name();
  info.name = field_or(cpuinfo, "model name", info.architecture);
  info.vendor = field_or(cpuinfo, "vendor_id", "unknown");
  info.version = backend_version;
  info.driver_version = backend_version;
  info.type = DeviceType::cpu;
  info.compute_units =
      share.cpus.empty() ? logical_cpu_count() : static_cast<std::uint32_t>(share.cpus.size());
  if (share.named_by_cores) info.name += " (cores " + core_range(share.cpus) + ")";
  // Work-groups run on one thread; __local memory is an ordinary block per thread. 4096
  // work-items per group, as PoCL's CPU device: a barrier kernel's group is that many
  // fibers (pooled 128 KiB stacks, of which each touches a few pages).
  info.local_memory_bytes = 1 << 20;
  info.max_work_group_size = 4096;
  info.global_memory_bytes = physical_memory_bytes();
  info.formats = {BinaryFormat::llvm_bitcode};
  if (cpuinfo.empty())
    logger().debug("host backend: /proc/cpuinfo is unreadable; CPU named after uname ({})",
                   info.architecture);
  return info;
}

// The sub-group size: the CPU's vector width in 32-bit lanes (the width the JIT, which
// targets this CPU, vectorises float and int work-group loops at).
std::size_t vector_lanes() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx")) return 8;
#endif
  return 4;  // SSE2, NEON
}

}  // namespace

HostDevice::HostDevice(Backend& backend, CoreShare share)
    : backend_(backend),
      info_(describe_host_cpu(share)),
      cpus_(share.cpus),
      pool_(std::make_unique<ThreadPool>(share.threads, share.cpus)),
      sub_group_size_(vector_lanes()) {}

HostDevice::~HostDevice() = default;

void* HostDevice::allocate(std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "device '" + info_.name + "': cannot allocate 0 bytes");
  void* memory = ::operator new(bytes, std::align_val_t(allocation_alignment), std::nothrow);
  if (!memory)
    throw error(error_category::device, "device '" + info_.name + "': out of memory allocating " +
                                            std::to_string(bytes) + " bytes");
  std::lock_guard lock(mutex_);
  allocations_.emplace(memory, bytes);
  return memory;
}

void HostDevice::deallocate(void* allocation) noexcept {
  if (!allocation) return;
  {
    std::lock_guard lock(mutex_);
    if (allocations_.erase(allocation) == 0) {
      logger().warn("device '{}': deallocate of {} which it did not allocate: ignored", info_.name,
                    allocation);
      return;
    }
  }
  ::operator delete(allocation, std::align_val_t(allocation_alignment));
}

std::size_t HostDevice::allocation_size(const void* allocation) const {
  std::lock_guard lock(mutex_);
  const auto it = allocations_.find(allocation);
  return it == allocations_.end() ? SIZE_MAX : it->second;
}

std::shared_ptr<DeviceModule> HostDevice::load_module(BinaryFormat format,
                                                      std::span<const std::byte> binary,
                                                      const std::vector<KernelInfo>& kernels) {
  if (format != BinaryFormat::llvm_bitcode)
    throw error(error_category::unsupported,
                "device '" + info_.name + "' cannot load " + std::string(to_string(format)) +
                    " modules: the host backend loads llvm-bitcode only");
  if (binary.empty())
    throw error(error_category::invalid_argument,
                "device '" + info_.name + "': the module is empty (0 bytes)");
  return std::make_shared<HostModule>(*this, binary, kernels);
}

std::unique_ptr<DeviceQueue> HostDevice::create_queue() {
  return std::make_unique<HostQueue>(*this);
}

}  // namespace plexus::host
