#include "opencl_completions.hpp"

#include <memory>
#include <utility>

#include "opencl_library_pin.hpp"
#include "opencl_query.hpp"
#include "plexus/error.hpp"

namespace plexus::opencl {

// One marker's callbacks, owned by the marker's driver callback.
struct OpenclCompletions::Batch {
  OpenclCompletions* owner;
  std::vector<Entry> entries;
};

CommandFailure status_failure(const OpenclCompletions::Pending& pending) {
  cl_int status = CL_COMPLETE;
  const cl_int code = clGetEventInfo(pending.event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                                     sizeof status, &status, nullptr);
  if (code != CL_SUCCESS) return {*pending.what + ": clGetEventInfo failed: " + error_name(code)};
  if (status < 0) return {*pending.what + " failed: " + error_name(status)};
  if (const std::uint32_t skipped = pending.cancel ? pending.cancel->skipped() : 0; skipped > 0)
    return {*pending.what + ": cancelled; " + std::to_string(skipped) + " work-group" +
                (skipped == 1 ? "" : "s") + " not started by then did not run",
            error_category::cancelled};
  return {};
}

OpenclCompletions::~OpenclCompletions() {
  callbacks_.wait_none();  // none in flight from here on: nothing arms another marker
  finish_waiting();
}

void OpenclCompletions::add(Entry entry) {
  std::vector<Entry> batch;
  {
    std::lock_guard lock(mutex_);
    if (in_flight_) {
      waiting_.push_back(std::move(entry));
    } else {
      in_flight_ = true;
      batch = std::exchange(waiting_, {});
      batch.push_back(std::move(entry));
    }
  }
  if (batch.empty()) {
    // The marker in flight reports it later (or the one its callback enqueues): the
    // commands must reach the device meanwhile.
    clFlush(queue_);
    return;
  }
  cl_int code = CL_SUCCESS;
  if (arm(batch, code)) return;
  {
    std::lock_guard lock(mutex_);
    in_flight_ = false;
  }
  clFinish(queue_);  // no marker: report the commands taken over once they are done
  report(batch, {"on_complete could not enqueue a marker: " + error_name(code)});
}

void OpenclCompletions::finish_waiting() {
  std::vector<Entry> left;
  {
    std::lock_guard lock(mutex_);
    if (in_flight_) return;  // the marker in flight reports them
    left = std::exchange(waiting_, {});
  }
  report(left, {});
}

bool OpenclCompletions::arm(std::vector<Entry>& batch, cl_int& code) {
  cl_event marker = nullptr;
  code = clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker);
  if (code != CL_SUCCESS) return false;
  auto owned = std::make_unique<Batch>(Batch{this, std::move(batch)});
  keep_library_loaded();  // the driver's thread runs marker_done's last instructions
  callbacks_.started();   // before: the callback may run at once
  code = clSetEventCallback(marker, CL_COMPLETE, marker_done, owned.get());
  if (code != CL_SUCCESS) {
    batch = std::move(owned->entries);
    callbacks_.finished();  // not registered: it will not run
    clReleaseEvent(marker);
    return false;
  }
  owned.release();  // the callback owns it now
  clFlush(queue_);
  return true;
}

void OpenclCompletions::report(std::vector<Entry>& batch, const CommandFailure& failure) noexcept {
  for (Entry& entry : batch) {
    CommandFailure first = entry.failure;
    for (const auto& pending : entry.pending)
      if (first.empty()) first = status_failure(pending);
    if (first.empty()) first = failure;
    entry.done(first.empty() ? nullptr
                             : std::make_exception_ptr(error(
                                   first.category, "OpenCL device '" + device_ + "': " + first.text)));
    entry = {};  // what `done` holds (a task's body, its buffers) goes now
  }
  batch.clear();
}

void CL_CALLBACK OpenclCompletions::marker_done(cl_event marker, cl_int status, void* data) {
  OpenclCompletions& self = *static_cast<Batch*>(data)->owner;
  {
    std::unique_ptr<Batch> batch(static_cast<Batch*>(data));
    clReleaseEvent(marker);
    self.report(batch->entries, status < 0 ? CommandFailure{"a command failed: " + error_name(status)}
                                           : CommandFailure{});
  }
  // The callbacks added while this marker was in flight: one marker after their commands.
  std::vector<Entry> next;
  {
    std::lock_guard lock(self.mutex_);
    next = std::exchange(self.waiting_, {});
    if (next.empty()) self.in_flight_ = false;
  }
  cl_int code = CL_SUCCESS;
  if (!next.empty() && !self.arm(next, code)) {
    // This thread must not block on the queue: the next add() or finish_waiting() (after
    // clFinish) reports them.
    std::lock_guard lock(self.mutex_);
    self.waiting_.insert(self.waiting_.begin(), std::make_move_iterator(next.begin()),
                         std::make_move_iterator(next.end()));
    self.in_flight_ = false;
  }
  self.callbacks_.finished();  // last: the queue may be destroyed from here on
}

}  // namespace plexus::opencl
