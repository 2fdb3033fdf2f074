// WorkerQueue: on a worker, the local queue behind one of rank 0's remote queues, driven by
// a thread of its own so that the worker's MPI calls never wait for a device (the host
// backend runs operations on the calling thread). Operations run in the order enqueued; a
// failed one fails the later ones until a report (a notify) has passed it on, as the
// DeviceQueue contract says. While idle, the queue's thread drives the worker's engine for
// a while (Engine::drive_until): the next operation for it is then received, run and
// answered on this one thread, without waking another. An operation that sends straight
// from the device's memory (Context::sends) need not wait for its send to go: later
// operations that only read that memory run meanwhile (copies out stream), any other waits
// for every such send first, and the queue is idle only once they have gone.
//
// Thread-safety: enqueue() from any thread; operations run on the queue's thread. The
// destructor must not run on the queue's own thread (nor inside the engine's work, which
// may run there).
// Ownership: owns its thread and local queue; the destructor runs what was enqueued, then
// joins.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "plexus/device.hpp"

namespace plexus::mpi {

class Engine;

class WorkerQueue {
 public:
  // What an operation sees: the local queue, the failure not reported yet, and the number
  // of the last operation whose end rank 0 has been told (a notify's answer, a report).
  // `sends`: sends from the device's memory still going; an operation that starts one
  // counts it here, and its completion (on any thread) takes it off.
  struct Context {
    DeviceQueue& local;
    std::exception_ptr& failure;
    std::uint64_t& reported;
    std::atomic<int>& sends;
  };
  using Operation = std::function<void(Context&)>;
  // Called on the queue's thread when it falls idle after numbered operations that rank 0
  // has not been told about: `finished` is the last one's number.
  using Report = std::function<void(Context&, std::uint64_t finished)>;

  // `index`: the device's number among the worker's devices; `engine`: the worker's, which
  // the queue's thread drives while idle (it must outlive the queue); `report`: see Report
  // (none for queues that rank 0 does not see).
  WorkerQueue(Device& device, std::uint32_t index, Engine& engine, Report report = {});
  ~WorkerQueue();
  WorkerQueue(const WorkerQueue&) = delete;
  WorkerQueue& operator=(const WorkerQueue&) = delete;

  // `operation` runs even after a failure (it reads context.failure to skip its own work);
  // an exception it throws becomes the queue's failure. `seq`: its number on rank 0's
  // queue (0: not one of rank 0's operations, a notify). `reads_only`: it only reads the
  // device's memory, so it runs while earlier sends from that memory still go (any other
  // operation waits for them).
  void enqueue(Operation operation, std::uint64_t seq = 0, bool reads_only = false);
  // Inside the engine's work: whether `seq` is the number rank 0 gives its next operation
  // on this queue (then counted); `received()` the last one accepted.
  bool accept(std::uint64_t seq);
  std::uint64_t received() const { return received_; }
  // True when every operation enqueued so far has run and its sends have gone.
  bool idle();
  Device& device() const { return device_; }
  Engine& engine() const { return engine_; }
  std::uint32_t index() const { return index_; }

 private:
  void run();
  // Waits (driving the engine, then blocking) until no send from the device's memory goes.
  void await_sends();

  Device& device_;
  std::uint32_t index_;
  Engine& engine_;
  std::unique_ptr<DeviceQueue> local_;
  std::exception_ptr failure_;
  std::mutex mutex_;
  std::condition_variable cv_;
  Report report_;
  std::uint64_t received_ = 0;               // inside the engine's work
  std::uint64_t finished_ = 0, reported_ = 0;  // the queue's thread
  struct Queued {
    Operation operation;
    std::uint64_t seq = 0;
    bool reads_only = false;
  };
  std::deque<Queued> operations_;
  std::atomic<int> sends_{0};  // Context::sends
  std::atomic<std::size_t> queued_{0};  // operations_.size(), read without the lock
  bool stop_ = false;
  bool running_ = false;
  std::thread thread_;
};

}  // namespace plexus::mpi
