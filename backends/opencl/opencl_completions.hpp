// OpenclCompletions: the on_complete callbacks of one OpenclQueue. Each is reported by a
// marker command with a driver callback (clSetEventCallback) enqueued after the commands it
// covers, with at most one such marker in flight per queue: a callback added while one is in
// flight waits, and when the in-flight marker's callback has reported its own, it enqueues
// one marker for every callback waiting (their commands were enqueued before they were
// added, so the new marker follows them). A chain of launches, each followed by on_complete
// (what a scheduler does per task), then costs one marker and one driver callback per batch
// instead of one per launch: on PoCL a marker with a callback costs more than a tiny kernel.
//
// A callback is called once every command enqueued before its add() has finished, with the
// first failure among the commands it took over (their events, and a failure already known
// when it was added) or nullptr, from the driver's callback thread, or from add() itself.
// When no marker can be enqueued: from add() (the queue's thread), after clFinish, with an
// error saying so; from the driver's thread (which must not block on the queue), the
// callbacks stay waiting for the next add() or for finish_waiting().
//
// Thread-safety: add() and finish_waiting() from the queue's one thread at a time; the
// driver's callback thread runs the rest. Ownership: owned by the queue; its destructor
// must run after the queue's commands are finished (clFinish): it reports what still waits
// and returns once no driver callback runs or will (CallbacksInFlight).
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_callbacks_in_flight.hpp"
#include "opencl_cancel_cells.hpp"
#include "opencl_handle.hpp"
#include "plexus/error.hpp"

namespace plexus::opencl {

// The first failure of a queue's commands, reported as plexus::error(category) naming the
// device and `text` ("<what> failed: <CL error>"); empty text: none.
struct CommandFailure {
  std::string text;
  error_category category = error_category::device;
  bool empty() const { return text.empty(); }
};

class OpenclCompletions {
 public:
  // A command in flight: its event and what it was, for error messages (shared: a kernel's
  // launches share one description, built once); a cancellable launch's cancel cell
  // (nullptr for other commands), whose `skipped` count, once the launch has finished,
  // says whether it was cancelled.
  struct Pending {
    EventHandle event;
    std::shared_ptr<const std::string> what;
    std::shared_ptr<CancelCells::Cell> cancel;
  };
  struct Entry {
    std::function<void(std::exception_ptr)> done;
    std::vector<Pending> pending;  // the commands not finished when it was added
    CommandFailure failure;        // a failure already known then; empty: none
  };

  OpenclCompletions(cl_command_queue queue, std::string device)
      : queue_(queue), device_(std::move(device)) {}
  ~OpenclCompletions();
  OpenclCompletions(const OpenclCompletions&) = delete;
  OpenclCompletions& operator=(const OpenclCompletions&) = delete;

  void add(Entry entry);
  // After clFinish on the queue: reports the callbacks left waiting (their commands are done).
  void finish_waiting();

 private:
  struct Batch;
  static void CL_CALLBACK marker_done(cl_event marker, cl_int status, void* data);
  // Enqueues a marker whose callback reports `batch`; false (the batch left in place) when
  // the driver refuses it.
  bool arm(std::vector<Entry>& batch, cl_int& code);
  void report(std::vector<Entry>& batch, const CommandFailure& failure) noexcept;

  cl_command_queue queue_;
  std::string device_;
  std::mutex mutex_;
  std::vector<Entry> waiting_;  // under mutex_: added while a marker was in flight
  bool in_flight_ = false;      // under mutex_
  CallbacksInFlight callbacks_;
};

// "<what> failed: <CL error>" (device) when the command of `pending` ended with a failure;
// "<what>: cancelled; N work-groups ... did not run" (cancelled) when it is a cancellable
// launch that finished with work-groups skipped; else empty. Call once the command is done.
CommandFailure status_failure(const OpenclCompletions::Pending& pending);

}  // namespace plexus::opencl
