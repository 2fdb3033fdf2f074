// OpenclCompletions: the on_complete callbacks of one OpenclQueue, served by a thread of the
// queue's own (started on first use). add() only queues the callback (with the commands it
// took over) and flushes the queue; the thread takes every callback waiting, waits for
// their commands' events (clWaitForEvents) and calls them in add() order. After a batch it
// collects the callbacks that arrive for PLEXUS_OPENCL_COMPLETION_BATCH_US (default 100
// microseconds) without being woken, then serves them as the next batch: a chain of tiny
// kernels costs one wake-up of this thread per interval, where a marker with a driver
// callback per task (on PoCL dearer than the kernel), or a wake-up per task (the device
// keeps up with tiny kernels: each batch is done at once), cost one per task. A callback
// after a quiet spell (nothing arrived during an interval) is served at once: launch-then-
// wait pays no batching delay. The callbacks run on this thread, not on the driver's.
//
// A callback is called once every command enqueued before its add() has finished (the
// queue records an event for every command, native work included: OpenclQueue), with the
// first failure among the commands it took over (their events' status, and a failure
// already known when it was added) or nullptr. When the thread cannot be started, add()
// waits for the queue (clFinish) and calls the callback itself.
//
// Thread-safety: add() and finish_waiting() from the queue's one thread at a time; the
// callbacks run on the completion thread (or in finish_waiting()). Ownership: owned by the
// queue; its destructor serves every callback still waiting, then joins the thread: call it
// after the queue's commands are finished (clFinish), never from a callback.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"

namespace plexus::opencl {

class OpenclCompletions {
 public:
  // A command in flight: its event and what it was, for error messages (shared: a kernel's
  // launches share one description, built once).
  struct Pending {
    EventHandle event;
    std::shared_ptr<const std::string> what;
  };
  struct Entry {
    std::function<void(std::exception_ptr)> done;
    std::vector<Pending> pending;  // the commands not finished when it was added
    std::string failure;           // a failure already known then; empty: none
  };

  OpenclCompletions(cl_command_queue queue, std::string device)
      : queue_(queue), device_(std::move(device)) {}
  ~OpenclCompletions();
  OpenclCompletions(const OpenclCompletions&) = delete;
  OpenclCompletions& operator=(const OpenclCompletions&) = delete;

  void add(Entry entry);
  // After clFinish on the queue: the callbacks still waiting are called now (on this
  // thread, unless the completion thread is serving a batch: then it serves them next,
  // without the batching delay).
  void finish_waiting();

 private:
  void run();
  // Waits for the commands of `batch`; the failure of the wait itself ("" when none).
  std::string wait_for(const std::vector<Entry>& batch);
  void report(std::vector<Entry>& batch, const std::string& failure) noexcept;

  cl_command_queue queue_;
  std::string device_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry> waiting_;  // under mutex_
  bool sleeping_ = false;       // under mutex_: the thread waits for a first callback
  bool serving_ = false;        // under mutex_: the thread is serving a batch
  bool hurry_ = false;          // under mutex_: serve the next batch without delay
  bool stopping_ = false;       // under mutex_
  std::thread thread_;          // started by add() under mutex_
};

// "<what> failed: <CL error>" when the command of `pending` ended with a failure, else "".
std::string status_failure(const OpenclCompletions::Pending& pending);

}  // namespace plexus::opencl
