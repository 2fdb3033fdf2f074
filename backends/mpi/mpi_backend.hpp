// MpiBackend: the devices of the other ranks of an MPI job (their workers, `plexus worker`),
// as devices of this process, which must be rank 0. Unavailable, with the reason and the
// launch line, when the process was not started by mpirun, runs without workers, is not
// rank 0, or every worker refused.
//
// Options ([backends.mpi]): `timeout_ms` (default 20000): silence after which a worker is
// declared failed and the work placed on it fails naming the node; `chunk_bytes` (default
// 4 MiB): the pipelining unit of large copies; `piece_bytes` (default: the shared-memory
// transport's eager limit less its header, 4032 bytes under Open MPI's defaults; 0: off):
// transfers of at most 64 KiB go in pieces of this size, each sent eagerly. The first mpi
// backend of a process sets them (one MPI session per process).
//
// Ownership: owns its devices; the session (MPI itself) lives until the process exits.
// Thread-safety: immutable after construction except for the record of which module
// binaries each node holds (locked); every member is safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"
#include "session.hpp"

namespace plexus::mpi {

class MpiDevice;

inline constexpr char backend_version[] = "0.1.0";

class MpiBackend final : public Backend {
 public:
  explicit MpiBackend(PluginContext& context);
  ~MpiBackend() override;

  BackendStatus status() const override;
  std::size_t device_count() const override;
  std::vector<BackendCounter> counters() const override;

  // True the first time `rank` is asked for binary `hash` (the caller then sends it).
  bool first_send(int rank, const std::array<std::uint8_t, 32>& hash);
  void forget_send(int rank, const std::array<std::uint8_t, 32>& hash);

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  std::shared_ptr<Session> session_;
  BackendStatus status_;
  std::vector<std::unique_ptr<MpiDevice>> devices_;
  std::mutex sent_mutex_;
  std::set<std::pair<int, std::array<std::uint8_t, 32>>> sent_;
};

}  // namespace plexus::mpi
