// Worker: what `plexus worker` runs on every rank but 0. It greets rank 0 (or refuses it,
// naming both versions), then serves its local devices: allocations, copies (with rank 0,
// and directly with other workers), module loading (binaries kept by content hash),
// launches and completion reports, until rank 0 says stop or fails.
//
// Every message is checked against the worker's state (devices, allocations, queues,
// modules); one that does not fit is answered with protocol_error, and rank 0 then gives up
// on this node, naming it. Thread-safety: everything but the operations of the queues runs
// inside the engine's work (the main thread's, or an idle queue thread's that drives it);
// the operations (worker_queue.hpp) reach back only through Engine::run_or_post/post and
// drive_until.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../engine.hpp"
#include "../messages.hpp"
#include "local_backends.hpp"
#include "worker_queue.hpp"

namespace plexus::mpi {

class Worker final : public Engine::Handler {
 public:
  // `startup_failure`: why this worker cannot serve (its backends failed to open); it then
  // refuses rank 0's greeting with it.
  Worker(const LocalBackends& backends, std::string startup_failure);
  ~Worker() override;

  // Serves until rank 0 says stop (0) or fails (1, with the reason on stderr).
  int serve(MPI_Comm comm);

  void on_message(int source, const Header& header, Reader& payload) override;
  void on_peer_failed(int rank, const std::string& why) override;
  void on_bad_message(int source, const std::string& why) override;

 private:
  struct Allocation {
    std::size_t bytes = 0;
  };
  using Hash = std::array<std::byte, 32>;

  void hello(const Header& header, Reader& in);
  void reply_ok(std::uint64_t id, const std::function<void(Writer&)>& body = {});
  void reply_failure(std::uint64_t id, std::exception_ptr failure);
  Device& device(Reader& in);
  std::uint32_t device_index(Reader& in);
  WorkerQueue& queue(Reader& in);
  // An operation's number on `on`, checked to follow the last one.
  std::uint64_t sequence(WorkerQueue& on, Reader& in);
  // What a queue of rank 0 sends when it falls idle: `done` (messages.hpp).
  WorkerQueue::Report report_to_rank0(std::uint64_t queue);
  // The allocation of `device` that holds [address + offset, + extent of layout); fails the
  // message otherwise. Returns the address as a pointer.
  void* region(std::uint32_t device, std::uint64_t address, const CopyLayout& layout, Reader& in);
  void* pointer_in(std::uint32_t device, std::uint64_t address, Reader& in);
  // The bytes from `address` to the end of the allocation of `device` that holds it; fails
  // the message when none does.
  std::size_t bytes_after(std::uint32_t device, std::uint64_t address, Reader& in);

  void release_after_queues(std::uint32_t device, void* allocation);
  // `on` receives the data of `transfer` from `source` and copies it in, in its order (as
  // rank 0's operation `seq`; 0 for none).
  void receive_then_copy_in(WorkerQueue& on, std::uint64_t seq, void* allocation,
                            const CopyLayout& layout, int source, std::uint64_t transfer);
  // `on` copies the region out, in its order, and sends it to `destination`; `report`: a
  // failure stays the queue's, for its next notify.
  void copy_out_then_send(WorkerQueue& on, std::uint64_t seq, void* allocation,
                          const CopyLayout& layout, int destination, std::uint64_t transfer,
                          bool report);
  void copy_in(Reader& in);
  void copy_out(Reader& in);
  void copy_pull(Reader& in);
  void copy_push(Reader& in);
  void copy_local(Reader& in);
  void copy_within(Reader& in);
  void fill_within(Reader& in);
  // The start of an allocation of `device` at `address` holding [offset, offset + bytes);
  // fails the message otherwise.
  void* allocation_start(std::uint32_t device, std::uint64_t address, std::uint64_t offset,
                         std::uint64_t bytes, Reader& in);
  void load_module(const Header& header, Reader& in);
  void launch(Reader& in);
  // A registered native function (native_function.hpp) on the queue's device, in its order
  // (worker_native.cpp); its failure is the queue's (rank 0 adds this node's name).
  void native_call(Reader& in);
  void notify(const Header& header, Reader& in);

  const LocalBackends& backends_;
  std::string startup_failure_;
  Engine* engine_ = nullptr;
  bool greeted_ = false;
  std::uint64_t kill_after_ = 0, received_ = 0;
  std::atomic<bool> stop_{false};
  std::string failure_;
  std::vector<std::map<std::uint64_t, Allocation>> allocations_;  // per device, by address
  std::map<std::uint64_t, std::unique_ptr<WorkerQueue>> queues_;
  std::vector<std::unique_ptr<WorkerQueue>> retired_;  // destroyed, to end on the main thread
  std::vector<std::unique_ptr<WorkerQueue>> push_queues_;  // per device, lazily
  std::map<Hash, std::vector<std::byte>> binaries_;
  std::map<std::pair<std::uint32_t, Hash>, std::shared_ptr<DeviceModule>> loaded_;
  struct Module {
    std::uint32_t device = 0;
    std::shared_ptr<DeviceModule> module;
    std::vector<KernelInfo> kernels;
    std::vector<const DeviceKernel*> found;  // module->kernel() of each, looked up once
  };
  std::map<std::uint64_t, Module> modules_;
};

// `plexus worker [--backends LIST] [--config FILE]`: the whole command; returns the exit code.
int worker_main(const std::vector<std::string>& args);

}  // namespace plexus::mpi
