#include "plexus/task_event.hpp"

#include <atomic>
#include <cstddef>
#include <new>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include "api/failure_sink.hpp"
#include "api/held_views.hpp"
#include "plexus/cpu_pause.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"

namespace plexus {

namespace {
constexpr auto wait_spin = std::chrono::microseconds(100);

// request_marker / enqueued: whether a marker is asked for and made.
enum MarkerState : int {
  marker_open,       // the work is not enqueued, nobody asked
  marker_requested,  // asked for before the work was enqueued: the starter records one
  marker_recorded,   // recorded (State::marker, may be nullptr when the queue cannot mark)
  marker_closed,     // the work was enqueued before anyone asked: none
};
}  // namespace

struct TaskEvent::State {
  std::string label;
  mutable std::mutex mutex;
  mutable std::condition_variable done_cv;
  // Written under `mutex`; read without it by is_done() and status() (release/acquire:
  // `failure` and the times are written before the final status).
  std::atomic<TaskStatus> status{TaskStatus::submitted};
  std::exception_ptr failure;
  std::vector<std::function<void()>> callbacks;
  clock::time_point submitted_at, started_at, finished_at;
  std::atomic<DeviceQueue*> pending_on{nullptr};  // read without the lock by later tasks
  std::atomic<int> marker_state{marker_open};            // MarkerState
  std::shared_ptr<const QueueMarker> marker;      // written before marker_recorded
  std::atomic<bool> cancel_requested{false};  // written under mutex
  std::vector<std::function<void()>> cancel_callbacks;  // under mutex; dropped by finish()
  std::shared_ptr<detail::FailureSink> sink;            // set before the event can fail
  // Made by finish() on a failure, or shared with the dependency whose failure this event
  // carries on (fail_with_failure_of, before finish()).
  std::shared_ptr<std::atomic<bool>> observed;
  bool carried = false;  // `observed` is a dependency's, whose event reported the failure
  std::shared_ptr<TaskEvent> waiting_on;                // under mutex
  bool refused = false;   // written before status turns failed (mark_refused)
  bool in_block = false;  // placed in a Block by make(): destroyed, not freed, by the event
};

struct TaskEvent::Block {
  explicit Block(std::string label)
      : event(std::move(label), new (static_cast<void*>(state)) State) {}
  alignas(State) std::byte state[sizeof(State)];
  TaskEvent event;  // after `state`: destroyed first
};

TaskEvent::TaskEvent(std::string label) : TaskEvent(std::move(label), new State) {}

TaskEvent::TaskEvent(std::string label, State* state) : state_(state) {
  state_->label = std::move(label);
  state_->submitted_at = clock::now();
}

std::shared_ptr<TaskEvent> TaskEvent::make(std::string label) {
  auto block = std::make_shared<Block>(std::move(label));
  block->event.state_->in_block = true;
  return std::shared_ptr<TaskEvent>(block, &block->event);
}

const std::string& TaskEvent::label() const { return state_->label; }

TaskEvent::~TaskEvent() {
  if (state_ && state_->in_block) state_.release()->~State();
}

TaskStatus TaskEvent::status() const { return state_->status.load(std::memory_order_acquire); }

bool TaskEvent::is_done() const {  // lock-free: schedulers poll it per submission
  const TaskStatus status = state_->status.load(std::memory_order_acquire);
  return status == TaskStatus::complete || status == TaskStatus::failed;
}

void TaskEvent::mark_running() {
  std::lock_guard lock(state_->mutex);
  if (state_->status != TaskStatus::submitted) {
    throw error(error_category::internal,
                "task '" + state_->label + "' started twice or after it ended");
  }
  state_->status = TaskStatus::running;
  state_->started_at = clock::now();
}

bool TaskEvent::failed_with_data() const {
  // `refused` is written before the release store of `status` (finish()).
  return state_->status.load(std::memory_order_acquire) == TaskStatus::failed && !state_->refused;
}

void TaskEvent::mark_complete() { finish(TaskStatus::complete, nullptr); }

namespace {

// The failure as an object of the core's own making. An exception a plugin made with
// std::make_exception_ptr is destroyed through a function of that plugin (the destructor
// thunk the template instantiated there), so an event that outlives its runtime, and so the
// plugin's library, would crash when it lets the failure go. A plexus::error is copied here;
// other types are kept as they are.
std::exception_ptr owned_by_core(std::exception_ptr failure) {
  if (!failure) return failure;
  try {
    std::rethrow_exception(failure);
  } catch (const error& e) {
    return std::make_exception_ptr(e);
  } catch (...) {
    return failure;
  }
}

}  // namespace

void TaskEvent::mark_failed(std::exception_ptr failure) {
  finish(TaskStatus::failed, owned_by_core(std::move(failure)));
}

void TaskEvent::mark_refused(std::exception_ptr failure) {
  {
    std::lock_guard lock(state_->mutex);
    if (state_->status != TaskStatus::submitted) {
      throw error(error_category::internal,
                  "task '" + state_->label + "' refused after it started or ended");
    }
    state_->refused = true;
  }
  finish(TaskStatus::failed, owned_by_core(std::move(failure)));
}

void TaskEvent::fail_with_failure_of(const TaskEvent& dependency, bool refused) {
  std::exception_ptr failure;
  std::shared_ptr<std::atomic<bool>> observed;
  std::shared_ptr<detail::FailureSink> reported_to;
  {
    std::lock_guard lock(dependency.state_->mutex);
    failure = dependency.state_->failure;  // made by the core already (owned_by_core)
    observed = dependency.state_->observed;
    // Handed to the dependency's sink already: by the dependency, or (when it carries the
    // failure on itself) by the event where it arose, whose sink is the same.
    reported_to = dependency.state_->sink;
  }
  if (!failure || !observed) {
    throw error(error_category::internal, "task '" + state_->label +
                                              "' carries the failure of task '" +
                                              dependency.label() + "', which did not fail");
  }
  {
    std::lock_guard lock(state_->mutex);
    if (refused && state_->status != TaskStatus::submitted) {
      throw error(error_category::internal,
                  "task '" + state_->label + "' refused after it started or ended");
    }
    state_->refused = refused;
    state_->observed = std::move(observed);
    state_->carried = reported_to && reported_to == state_->sink;
  }
  finish(TaskStatus::failed, std::move(failure));
}

void TaskEvent::finish(TaskStatus final_status, std::exception_ptr failure) {
  std::vector<std::function<void()>> callbacks, cancel_callbacks;
  std::shared_ptr<const QueueMarker> marker;
  std::shared_ptr<detail::FailureSink> sink;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->status == TaskStatus::complete || state_->status == TaskStatus::failed) {
      throw error(error_category::internal, "task '" + state_->label + "' completed twice");
    }
    // A task that never ran (failed or completed before it started) has started_at equal
    // to finished_at, set below (a trace shows it taking no time).
    const bool never_ran = state_->status == TaskStatus::submitted;
    if (final_status == TaskStatus::failed) {
      if (!state_->observed) state_->observed = std::make_shared<std::atomic<bool>>(false);
      if (!state_->carried) sink = state_->sink;
    }
    state_->failure = std::move(failure);
    state_->finished_at = clock::now();
    if (never_ran) state_->started_at = state_->finished_at;
    state_->status.store(final_status, std::memory_order_release);
    callbacks.swap(state_->callbacks);
    cancel_callbacks.swap(state_->cancel_callbacks);  // never called now: released below
    marker.swap(state_->marker);  // reached: no later task needs it (released below)
    state_->waiting_on.reset();
  }
  // Before waiters wake: a wait that rethrows marks the failure observed in the sink's entry.
  if (sink) sink->add({state_->label, state_->failure, state_->observed});
  state_->done_cv.notify_all();
  for (auto& callback : callbacks) callback();
}

bool TaskEvent::wait_until(clock::time_point deadline, bool observe) const {
  // Complete already (the common case: a dependency that finished): no lock. A failure is
  // rethrown under the lock, which orders the threads sharing the exception object.
  if (state_->status.load(std::memory_order_acquire) == TaskStatus::complete) return true;
  // A short wait (a small kernel) ends sooner spinning than sleeping, whose wake-up costs
  // microseconds to tens of them: spin up to wait_spin, then sleep (as the CUDA driver's
  // default synchronize spins).
  spin_for(std::min<clock::duration>(wait_spin, deadline - clock::now()), Spin::yielding,
           [this] { return is_done(); });
  // A thread that holds host views waits in steps, checking that it does not wait for work
  // that waits for one of its views (detail::AwaitScope; a scheduler's worker fails it).
  std::optional<detail::AwaitScope> awaiting;
  if (detail::this_thread_holds_views()) {
    detail::check_wait(this);  // throws when this would wait for a view this thread holds
    awaiting.emplace(this);
  }
  std::unique_lock lock(state_->mutex);
  const auto done = [this] {
    return state_->status == TaskStatus::complete || state_->status == TaskStatus::failed;
  };
  if (deadline == clock::time_point::max()) {
    state_->done_cv.wait(lock, done);
  } else if (!state_->done_cv.wait_until(lock, deadline, done)) {
    return false;
  }
  if (observe && state_->status == TaskStatus::failed && state_->failure) {
    state_->observed->store(true, std::memory_order_release);
    std::rethrow_exception(state_->failure);
  }
  return true;
}

void TaskEvent::wait() const { wait_until(clock::time_point::max(), true); }

bool TaskEvent::wait_for(std::chrono::nanoseconds timeout) const {
  const auto now = clock::now();
  // A timeout too long for the clock is no timeout (no overflow).
  const bool forever = timeout >= clock::time_point::max() - now;
  return wait_until(forever ? clock::time_point::max() : now + timeout, true);
}

void TaskEvent::wait_done() const { wait_until(clock::time_point::max(), false); }

bool TaskEvent::wait_done_for(std::chrono::nanoseconds timeout) const {
  const auto now = clock::now();
  const bool forever = timeout >= clock::time_point::max() - now;
  return wait_until(forever ? clock::time_point::max() : now + timeout, false);
}

std::exception_ptr TaskEvent::failure() const {
  if (state_->status.load(std::memory_order_acquire) != TaskStatus::failed) return nullptr;
  std::lock_guard lock(state_->mutex);
  return state_->failure;
}

bool TaskEvent::failure_observed() const {
  std::lock_guard lock(state_->mutex);
  return state_->observed && state_->observed->load(std::memory_order_acquire);
}

void TaskEvent::cancel() {
  std::vector<std::function<void()>> callbacks;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->cancel_requested.load(std::memory_order_relaxed)) return;  // asked already
    state_->cancel_requested.store(true, std::memory_order_release);
    callbacks.swap(state_->cancel_callbacks);
  }
  for (auto& callback : callbacks) callback();
}

void TaskEvent::on_cancel(std::function<void()> callback) const {
  {
    std::lock_guard lock(state_->mutex);
    if (state_->status == TaskStatus::complete || state_->status == TaskStatus::failed) return;
    if (!state_->cancel_requested.load(std::memory_order_relaxed)) {
      state_->cancel_callbacks.push_back(std::move(callback));
      return;
    }
  }
  callback();  // asked before: at once
}

bool TaskEvent::cancel_requested() const {
  return state_->cancel_requested.load(std::memory_order_acquire);
}

void TaskEvent::set_failure_sink(std::shared_ptr<detail::FailureSink> sink) {
  std::lock_guard lock(state_->mutex);
  state_->sink = std::move(sink);
}

void TaskEvent::set_waiting_on(std::shared_ptr<TaskEvent> dependency) {
  std::lock_guard lock(state_->mutex);
  state_->waiting_on = std::move(dependency);
}

std::shared_ptr<TaskEvent> TaskEvent::waiting_on() const {
  std::lock_guard lock(state_->mutex);
  return state_->waiting_on;
}

void TaskEvent::on_done(std::function<void()> callback) {
  {
    std::lock_guard lock(state_->mutex);
    if (state_->status != TaskStatus::complete && state_->status != TaskStatus::failed) {
      state_->callbacks.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

void TaskEvent::set_pending_on(DeviceQueue* queue) {
  state_->pending_on.store(queue, std::memory_order_release);
}

DeviceQueue* TaskEvent::pending_on() const {
  return state_->pending_on.load(std::memory_order_acquire);
}

bool TaskEvent::request_marker() {
  int state = state_->marker_state.load(std::memory_order_acquire);
  if (state == marker_open &&
      state_->marker_state.compare_exchange_strong(state, marker_requested, std::memory_order_acq_rel))
    return !is_done();
  if (state == marker_requested) return !is_done();
  if (state == marker_recorded) return !is_done();  // wait_marker: nullptr once done
  return false;  // marker_closed
}

std::shared_ptr<const QueueMarker> TaskEvent::wait_marker() const {
  const auto ready = [this] {
    return state_->marker_state.load(std::memory_order_acquire) == marker_recorded || is_done();
  };
  if (!spin_for(wait_spin, Spin::yielding, ready)) {
    std::unique_lock lock(state_->mutex);
    state_->done_cv.wait(lock, ready);
  }
  std::lock_guard lock(state_->mutex);
  return state_->marker;  // nullptr when none was recorded, or the event is done
}

void TaskEvent::enqueued(DeviceQueue& queue) {
  int state = marker_open;
  if (state_->marker_state.compare_exchange_strong(state, marker_closed, std::memory_order_acq_rel))
    return;  // nobody asked: no marker (the common case, one atomic operation)
  if (state != marker_requested) return;
  std::shared_ptr<const QueueMarker> marker;
  try {
    marker = queue.mark();
  } catch (...) {
    // no marker: the waiter waits for the event on the host
  }
  {
    std::lock_guard lock(state_->mutex);  // a waiter checks under it: no lost wake-up
    state_->marker = std::move(marker);
    state_->marker_state.store(marker_recorded, std::memory_order_release);
  }
  state_->done_cv.notify_all();
}

TaskEvent::clock::time_point TaskEvent::submitted_at() const {
  std::lock_guard lock(state_->mutex);
  return state_->submitted_at;
}

TaskEvent::clock::time_point TaskEvent::started_at() const {
  std::lock_guard lock(state_->mutex);
  return state_->started_at;
}

TaskEvent::clock::time_point TaskEvent::finished_at() const {
  std::lock_guard lock(state_->mutex);
  return state_->finished_at;
}

}  // namespace plexus
