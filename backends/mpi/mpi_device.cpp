#include "mpi_device.hpp"

#include <llvm/Support/BLAKE3.h>

#include <algorithm>
#include <atomic>

#include "mpi_backend.hpp"
#include "mpi_module.hpp"
#include "mpi_queue.hpp"
#include "plexus/error.hpp"

namespace plexus::mpi {

namespace {

// Handles live in a range no memory of this process uses; 64 KiB apart, never reused.
std::atomic<std::uintptr_t> next_handle{std::uintptr_t{1} << 46};
constexpr std::uintptr_t handle_gap = 1 << 16;

}  // namespace

MpiDevice::MpiDevice(MpiBackend& backend, std::shared_ptr<Session> session, const Node& node,
                     RemoteDevice remote)
    : backend_(backend), session_(std::move(session)), remote_(std::move(remote)),
      node_name_(node.name), info_(remote_.info) {
  info_.name = node.host + " rank " + std::to_string(node.rank) + ": " + remote_.info.name;
}

MpiDevice::~MpiDevice() = default;

Backend& MpiDevice::backend() const { return backend_; }

void* MpiDevice::allocate(std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument, "allocate of 0 bytes on " + info_.name);
  std::uint64_t address = 0;
  session_->call(
      remote_.rank, MessageType::allocate,
      [&](Writer& out) {
        out.u32(remote_.index);
        out.u64(bytes);
      },
      [&](Reader& in) { address = in.u64(); });
  const std::uintptr_t span = (bytes + handle_gap - 1) / handle_gap * handle_gap + handle_gap;
  const std::uintptr_t handle = next_handle.fetch_add(span);
  std::lock_guard lock(mutex_);
  allocations_[handle] = {address, bytes};
  return reinterpret_cast<void*>(handle);
}

void MpiDevice::deallocate(void* allocation) noexcept {
  if (!allocation) return;
  Allocation gone;
  {
    std::lock_guard lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(allocation));
    if (it == allocations_.end()) return;
    gone = it->second;
    allocations_.erase(it);
  }
  try {
    session_->post([to = target(), gone](Engine& engine) {
      to.session->tell(engine, to.rank, MessageType::deallocate, [&](Writer& out) {
        out.u32(to.index);
        out.u64(gone.address);
      });
    });
  } catch (...) {
    // No memory for the message: the worker frees it when it ends.
  }
}

MpiDevice::Remote MpiDevice::resolve(const void* handle,
                                     const std::function<std::string()>& what) const {
  const auto at = reinterpret_cast<std::uintptr_t>(handle);
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(at);
  if (it != allocations_.begin()) {
    --it;
    if (at - it->first < it->second.bytes)
      return {it->second.address + (at - it->first), it->second.bytes - (at - it->first)};
  }
  throw error(error_category::invalid_argument,
              what() + ": not an allocation of " + info_.name + " (or past its end)");
}

std::shared_ptr<DeviceModule> MpiDevice::load_module(BinaryFormat format,
                                                     std::span<const std::byte> binary,
                                                     const std::vector<KernelInfo>& kernels) {
  if (std::find(info_.formats.begin(), info_.formats.end(), format) == info_.formats.end()) {
    std::string formats;
    for (BinaryFormat each : info_.formats) formats += (formats.empty() ? "" : ", ") + std::string(to_string(each));
    throw error(error_category::unsupported, info_.name + " does not load " +
                                                 std::string(to_string(format)) + " (it loads: " +
                                                 (formats.empty() ? "none" : formats) + ")");
  }
  llvm::BLAKE3 hasher;
  const auto format_tag = static_cast<std::uint8_t>(format);
  hasher.update(llvm::ArrayRef<std::uint8_t>(&format_tag, 1));
  hasher.update(llvm::ArrayRef<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(binary.data()),
                                             binary.size()));
  const std::array<std::uint8_t, 32> hash = hasher.final();
  const std::uint64_t id = session_->next_id();
  std::vector<std::uint64_t> group_limits;  // per kernel, from the worker's device
  const auto send = [&](bool with_binary) {
    session_->call(
        remote_.rank, MessageType::load_module,
        [&](Writer& out) {
          out.u32(remote_.index);
          out.u64(id);
          out.block(std::as_bytes(std::span(hash)));
          out.u32(static_cast<std::uint32_t>(format));
          out.u64(kernels.size());
          for (const KernelInfo& kernel : kernels) write(out, kernel);
          out.boolean(with_binary);
          if (with_binary) out.block(binary);
        },
        [&](Reader& in) {
          for (std::size_t i = 0; i < kernels.size(); ++i)
            group_limits.push_back(in.bounded(std::uint64_t{1} << 32, "a kernel's work-group limit"));
        });
  };
  const bool first = backend_.first_send(remote_.rank, hash);
  try {
    send(first);
  } catch (...) {
    if (first) backend_.forget_send(remote_.rank, hash);
    throw;
  }
  return std::make_shared<MpiModule>(*this, id, kernels, std::move(group_limits));
}

std::unique_ptr<DeviceQueue> MpiDevice::create_queue() { return std::make_unique<MpiQueue>(*this); }

}  // namespace plexus::mpi
