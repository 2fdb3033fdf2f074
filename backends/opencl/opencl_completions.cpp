#include "opencl_completions.hpp"

#include <chrono>
#include <system_error>
#include <utility>

#include "opencl_query.hpp"
#include "plexus/environment.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::opencl {
namespace {

// The shortest time between two batches while callbacks stream in (those that arrive
// meanwhile join the next one). PLEXUS_OPENCL_COMPLETION_BATCH_US overrides it.
std::chrono::microseconds batch_interval() {
  static const auto interval =
      microseconds_from_environment("PLEXUS_OPENCL_COMPLETION_BATCH_US", 100);
  return interval;
}

}  // namespace

std::string status_failure(const OpenclCompletions::Pending& pending) {
  cl_int status = CL_COMPLETE;
  const cl_int code = clGetEventInfo(pending.event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                                     sizeof status, &status, nullptr);
  if (code != CL_SUCCESS) return *pending.what + ": clGetEventInfo failed: " + error_name(code);
  return status < 0 ? *pending.what + " failed: " + error_name(status) : "";
}

OpenclCompletions::~OpenclCompletions() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  finish_waiting();  // none when the thread ran: it served them before it ended
}

void OpenclCompletions::add(Entry entry) {
  bool wake = false;
  std::string refused;
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([this] { run(); });
      } catch (const std::system_error& e) {
        refused = e.what();
      }
    }
    if (refused.empty()) {
      waiting_.push_back(std::move(entry));
      wake = sleeping_;
      sleeping_ = false;  // one notification is enough
    }
  }
  if (!refused.empty()) {
    // No thread: report once the commands are done, here. Slow, but the task completes.
    logger().warn("opencl backend: the system refused a queue's completion thread ({}): its "
                  "completions are waited for on the submitting thread",
                  refused);
    clFinish(queue_);
    std::vector<Entry> alone;
    alone.push_back(std::move(entry));
    report(alone, "");
    return;
  }
  // The commands must reach the device meanwhile (a GPU driver may hold them until a flush).
  clFlush(queue_);
  if (wake) wake_.notify_one();
}

void OpenclCompletions::finish_waiting() {
  std::vector<Entry> left;
  {
    std::lock_guard lock(mutex_);
    if (serving_) {
      hurry_ = true;  // it serves them next, at once (their commands are done)
      wake_.notify_one();
      return;
    }
    left = std::exchange(waiting_, {});
  }
  report(left, "");
}

void OpenclCompletions::run() {
  std::vector<Entry> batch;
  bool served = false;  // a batch was just served: more may follow (a stream of tasks)
  std::unique_lock lock(mutex_);
  for (;;) {
    if (served) {
      // Collect a stream's next callbacks for one interval, without being woken for each:
      // when the device keeps up with the tasks, a batch is done at once, and sleeping until
      // the next add() would cost a wake-up per task again.
      wake_.wait_until(lock, std::chrono::steady_clock::now() + batch_interval(),
                       [this] { return stopping_ || hurry_; });
    }
    hurry_ = false;
    if (waiting_.empty()) {
      // A quiet spell: the next callback wakes this thread and is served at once.
      sleeping_ = true;
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      sleeping_ = false;
      if (waiting_.empty()) return;  // stopping, and every callback served
    }
    batch.swap(waiting_);  // waiting_ keeps the old batch's capacity
    serving_ = true;
    lock.unlock();
    const std::string failure = wait_for(batch);
    report(batch, failure);
    lock.lock();
    serving_ = false;
    served = true;
  }
}

std::string OpenclCompletions::wait_for(const std::vector<Entry>& batch) {
  std::vector<cl_event> events;
  for (const Entry& entry : batch)
    for (const Pending& pending : entry.pending) events.push_back(pending.event.get());
  if (events.empty()) return "";
  const cl_int code = clWaitForEvents(static_cast<cl_uint>(events.size()), events.data());
  // A failed command: its entry reports it (status_failure).
  if (code == CL_SUCCESS || code == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) return "";
  clFinish(queue_);  // the commands are done before their callbacks run, however this ends
  return "waiting for its commands (clWaitForEvents) failed: " + error_name(code);
}

void OpenclCompletions::report(std::vector<Entry>& batch, const std::string& failure) noexcept {
  for (Entry& entry : batch) {
    std::string first = entry.failure;
    for (const auto& pending : entry.pending)
      if (first.empty()) first = status_failure(pending);
    if (first.empty()) first = failure;
    entry.done(first.empty() ? nullptr
                             : std::make_exception_ptr(error(
                                   error_category::device,
                                   "OpenCL device '" + device_ + "': " + first)));
    entry = {};  // what `done` holds (a task's body, its buffers) goes now
  }
  batch.clear();
}

}  // namespace plexus::opencl
