// MpiDevice: one device of a worker, seen from rank 0. Allocations are handles in an address
// range of this process that no memory backs (they are never dereferenced here): each maps
// to the worker's own allocation, so a handle plus an offset is an address on the worker.
// Allocation and module loading wait for the worker's answer (they report its errors);
// queues do not wait (mpi_queue.hpp).
//
// Ownership: owned by its backend. Thread-safety: every member is safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "plexus/device.hpp"
#include "session.hpp"

namespace plexus::mpi {

class MpiBackend;

class MpiDevice final : public Device {
 public:
  MpiDevice(MpiBackend& backend, std::shared_ptr<Session> session, const Node& node,
            RemoteDevice remote);
  ~MpiDevice() override;

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override;
  // Its node's failure, once it failed (heartbeat silence, an MPI error, a bad message).
  std::string lost() const override { return session_->failure(remote_.rank); }

  void* allocate(std::size_t bytes) override;
  void deallocate(void* allocation) noexcept override;
  std::shared_ptr<DeviceModule> load_module(BinaryFormat format, std::span<const std::byte> binary,
                                            const std::vector<KernelInfo>& kernels) override;
  std::unique_ptr<DeviceQueue> create_queue() override;
  // Native tasks: the remote device's own backend name; only registered native functions
  // run (its queues forward them: MpiQueue::enqueue_native_call).
  std::string_view native_backend() const override { return remote_.native_backend; }
  bool runs_native_closures() const override { return false; }

  // Where `handle` (an allocation of this device plus an offset) is on the worker, and how
  // many bytes of its allocation follow it. Throws invalid_argument naming `what` for a
  // handle of no allocation of this device (`what` is called then only).
  struct Remote {
    std::uint64_t address = 0;
    std::size_t bytes_after = 0;
  };
  Remote resolve(const void* handle, const std::function<std::string()>& what) const;

  // What posted work needs to reach this device's worker: values, so that work still
  // queued on the progress thread when the device goes never reads it.
  struct Target {
    Session* session = nullptr;
    int rank = 0;
    std::uint32_t index = 0;
  };
  Target target() const { return {session_.get(), remote_.rank, remote_.index}; }
  Session& session() const { return *session_; }
  int rank() const { return remote_.rank; }
  std::uint32_t index() const { return remote_.index; }
  const std::string& node_name() const { return node_name_; }

 private:
  MpiBackend& backend_;
  std::shared_ptr<Session> session_;
  RemoteDevice remote_;
  std::string node_name_;
  DeviceInfo info_;
  mutable std::mutex mutex_;
  struct Allocation {
    std::uint64_t address = 0;
    std::size_t bytes = 0;
  };
  std::map<std::uintptr_t, Allocation> allocations_;  // by handle
};

}  // namespace plexus::mpi
