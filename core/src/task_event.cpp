#include "plexus/task_event.hpp"

#include <atomic>
#include <cstddef>
#include <new>
#include <condition_variable>
#include <mutex>
#include <vector>

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

void TaskEvent::finish(TaskStatus final_status, std::exception_ptr failure) {
  std::vector<std::function<void()>> callbacks;
  std::shared_ptr<const QueueMarker> marker;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->status == TaskStatus::complete || state_->status == TaskStatus::failed) {
      throw error(error_category::internal, "task '" + state_->label + "' completed twice");
    }
    if (state_->status == TaskStatus::submitted) state_->started_at = clock::now();
    state_->failure = std::move(failure);
    state_->finished_at = clock::now();
    state_->status.store(final_status, std::memory_order_release);
    callbacks.swap(state_->callbacks);
    marker.swap(state_->marker);  // reached: no later task needs it (released below)
  }
  state_->done_cv.notify_all();
  for (auto& callback : callbacks) callback();
}

void TaskEvent::wait() const {
  // Complete already (the common case: a dependency that finished): no lock. A failure is
  // rethrown under the lock, which orders the threads sharing the exception object.
  if (state_->status.load(std::memory_order_acquire) == TaskStatus::complete) return;
  // A short wait (a small kernel) ends sooner spinning than sleeping, whose wake-up costs
  // microseconds to tens of them: spin up to wait_spin, then sleep (as the CUDA driver's
  // default synchronize spins).
  spin_for(wait_spin, Spin::yielding, [this] { return is_done(); });
  std::unique_lock lock(state_->mutex);
  state_->done_cv.wait(lock, [this] {
    return state_->status == TaskStatus::complete || state_->status == TaskStatus::failed;
  });
  if (state_->status == TaskStatus::failed && state_->failure)
    std::rethrow_exception(state_->failure);
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
