// MpiQueue: a queue of a worker's device, seen from rank 0. Every operation is a message to
// the worker (and, for copies, data in chunks on a tag of the copy's own), sent by the
// progress thread: enqueueing never waits for the worker. A copy between two workers goes
// from one to the other directly (the source worker pushes, the destination pulls): rank 0
// only tells both. on_complete() asks the worker to answer once the operations before it are
// done, and calls back when that answer and every copy to host memory before it have
// arrived, or when the node has failed (bounded by the heartbeat timeout). The worker also
// reports, unasked, when the queue falls idle (`done`, with the last operation's number):
// wait() returns on that report without a request of its own when nothing failed.
//
// Thread-safety: one thread at a time (DeviceQueue); its state lives on the progress thread.
// Ownership: created by MpiDevice::create_queue; the destructor waits for its operations.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <set>
#include <vector>

#include "plexus/device_queue.hpp"
#include "session.hpp"

namespace plexus::mpi {

class MpiDevice;
class Engine;

class MpiQueue final : public DeviceQueue {
 public:
  explicit MpiQueue(MpiDevice& device);
  ~MpiQueue() override;

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                        const CopyLayout& layout) override;
  // On the worker's device (its own copy or fill, or through its host memory there): no
  // byte passes through rank 0.
  bool copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                   std::size_t source_offset, std::size_t bytes) override;
  bool fill_within(void* allocation, std::size_t offset, const void* pattern,
                   std::size_t pattern_size, std::size_t bytes) override;
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  // One message: the worker runs the registered function on its device, in this queue's
  // order (worker_native.cpp).
  void enqueue_native_call(const std::string& task, const NativeCall& call,
                           std::span<void* const> allocations) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;

  // Progress-thread state: failures of this queue's transfers not reported yet, copies to
  // host memory still arriving, and completions waiting for them.
  struct State {
    std::exception_ptr failure;
    std::atomic<bool> transfer_failed{false};  // `failure` is set (read by wait())
    std::atomic<int> arrivals{0};              // copies to host memory still arriving
    std::shared_ptr<QueueProgress> progress = std::make_shared<QueueProgress>();
    // Keeps the first failure of a transfer of this queue.
    void fail(std::exception_ptr failure);
    std::uint64_t next_transfer = 0;
    std::set<std::uint64_t> arriving;
    struct Waiter {
      std::uint64_t after = 0;  // waits for every arriving transfer numbered below this
      std::exception_ptr failure;
      std::function<void(std::exception_ptr)> done;
      bool direct = false;  // called on the progress thread (wait()), not delivered
    };
    std::vector<Waiter> waiters;
    std::function<void(std::function<void()>)> deliver;  // to the session's callback thread
    // Hands the completions whose copies have all arrived to `deliver`.
    void settle();
  };

 private:
  template <class Work>
  void post(Work&& work);  // Session::post
  // on_complete, with `done` called on the progress thread when `direct` (it must only
  // wake a waiter): wait() then works on any thread, the session's callback thread too.
  void complete(std::function<void(std::exception_ptr)> done, bool direct);
  // "<operation> on <device>", built only when called (for an error).
  std::function<std::string()> described(const char* operation) const;

  // The next operation's number (the user's thread): it also counts the operations sent.
  std::uint64_t next_seq();

  MpiDevice& device_;
  std::uint64_t id_;
  std::uint64_t sent_ = 0;
  std::shared_ptr<State> state_;
};

}  // namespace plexus::mpi
