// WorkerQueue: on a worker, the local queue behind one of rank 0's remote queues, driven by
// a thread of its own so that the worker's MPI calls never wait for a device (the host
// backend runs operations on the calling thread). Operations run in the order enqueued; a
// failed one fails the later ones until a report (a notify) has passed it on, as the
// DeviceQueue contract says. While idle, the queue's thread drives the worker's engine for
// a while (Engine::drive_until): the next operation for it is then received, run and
// answered on this one thread, without waking another.
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
  // What an operation sees: the local queue, and the failure not reported yet.
  struct Context {
    DeviceQueue& local;
    std::exception_ptr& failure;
  };
  using Operation = std::function<void(Context&)>;

  // `index`: the device's number among the worker's devices; `engine`: the worker's, which
  // the queue's thread drives while idle (it must outlive the queue).
  WorkerQueue(Device& device, std::uint32_t index, Engine& engine);
  ~WorkerQueue();
  WorkerQueue(const WorkerQueue&) = delete;
  WorkerQueue& operator=(const WorkerQueue&) = delete;

  // `operation` runs even after a failure (it reads context.failure to skip its own work);
  // an exception it throws becomes the queue's failure.
  void enqueue(Operation operation);
  // True when every operation enqueued so far has run.
  bool idle();
  Device& device() const { return device_; }
  Engine& engine() const { return engine_; }
  std::uint32_t index() const { return index_; }

 private:
  void run();

  Device& device_;
  std::uint32_t index_;
  Engine& engine_;
  std::unique_ptr<DeviceQueue> local_;
  std::exception_ptr failure_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Operation> operations_;
  std::atomic<std::size_t> queued_{0};  // operations_.size(), read without the lock
  bool stop_ = false;
  bool running_ = false;
  std::thread thread_;
};

}  // namespace plexus::mpi
