#include "tracer.hpp"

#include <algorithm>

#include "plexus/device.hpp"

namespace plexus::detail {

std::atomic<Tracer*> active_tracer_slot{nullptr};
thread_local TaskTrace* current_task_trace = nullptr;

namespace {
std::atomic<int> tracer_holds{0};   // TracerHolds of any thread
thread_local int own_tracer_holds = 0;  // those of this thread
}  // namespace

void TracerHold::acquire() {
  // Counted before the tracer is read again: deactivate_tracer clears the slot, then reads
  // the count (both sequentially consistent), so it sees this hold or this thread sees null.
  tracer_holds.fetch_add(1, std::memory_order_seq_cst);
  tracer_ = active_tracer_slot.load(std::memory_order_seq_cst);
  if (tracer_)
    ++own_tracer_holds;
  else
    tracer_holds.fetch_sub(1, std::memory_order_release);
}

void TracerHold::release() noexcept {
  --own_tracer_holds;
  tracer_holds.fetch_sub(1, std::memory_order_release);
}

TaskTrace& Tracer::begin(const Task& task) {
  std::lock_guard lock(mutex_);
  TaskTrace& record = records_.emplace_back();
  record.event = task.event;
  record.thread = std::this_thread::get_id();
  return record;
}

void Tracer::add(TraceSpan span) {
  std::lock_guard lock(mutex_);
  spans_.push_back(std::move(span));
}

void Tracer::add(std::shared_ptr<TraceTiming> timing) {
  std::lock_guard lock(mutex_);
  unsettled_.push_back(std::move(timing));
}

void Tracer::settle_timings(const std::vector<Device*>& devices) {
  std::lock_guard lock(mutex_);
  std::erase_if(unsettled_, [&](const std::shared_ptr<TraceTiming>& timing) {
    if (std::find(devices.begin(), devices.end(), timing->device()) == devices.end()) return false;
    timing->settle();
    return true;
  });
}

std::optional<DeviceTimes> TraceTiming::times() {
  std::lock_guard lock(mutex_);
  if (timing_) return timing_->times();
  return settled_;
}

void TraceTiming::settle() {
  std::lock_guard lock(mutex_);
  if (!timing_) return;
  settled_ = timing_->times();
  timing_.reset();
}

#if PLEXUS_TRACE_HOOKS
void TraceSpanScope::begin(TraceSpan::Kind kind, const std::string& device,
                           const std::string& detail, std::size_t bytes) {
  span_.kind = kind;
  span_.device = device;
  span_.detail = detail;
  span_.bytes = bytes;
  span_.thread = std::this_thread::get_id();
  span_.start = TaskEvent::clock::now();
}

void TraceSpanScope::end() noexcept {
  span_.end = TaskEvent::clock::now();
  const TracerHold hold;
  if (hold.get() != tracer_) return;  // its runtime stopped tracing meanwhile
  try {
    tracer_->add(std::move(span_));
  } catch (...) {
    // Out of memory: the trace lacks this span; the work itself succeeded or threw.
  }
}
#endif

bool activate_tracer(Tracer* tracer) {
  Tracer* none = nullptr;
  return active_tracer_slot.compare_exchange_strong(none, tracer, std::memory_order_acq_rel);
}

bool deactivate_tracer(Tracer* tracer, std::chrono::milliseconds limit) {
  Tracer* expected = tracer;
  if (!active_tracer_slot.compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst))
    return true;  // not the active one: nothing holds it
  const auto until = std::chrono::steady_clock::now() + limit;
  while (tracer_holds.load(std::memory_order_seq_cst) > own_tracer_holds) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

#if PLEXUS_TRACE_HOOKS
TraceOpScope::TraceOpScope(TraceOp::Kind kind, DeviceQueue* queue, const Device& device,
                           std::size_t bytes, const std::string& kernel)
    : task_(current_task_trace) {
  if (!task_) return;
  device_ = &device;
  if (queue && queue->enable_timing()) {
    timed_queue_ = queue;
    queue->take_timing();  // a span of its own: drop what was enqueued before
  }
  kernel_ = kernel;
  op_.kind = kind;
  op_.device = device.info().name;
  op_.bytes = bytes;
  op_.start = TaskEvent::clock::now();
}

void TraceOpScope::finish() {
  if (!task_) return;
  op_.end = TaskEvent::clock::now();
  if (timed_queue_) {
    if (auto timing = timed_queue_->take_timing()) {
      op_.timing = std::make_shared<TraceTiming>(device_, std::move(timing));
      // Settled by the device's runtime when it shuts down before the trace is written.
      const TracerHold hold;
      if (Tracer* tracer = hold.get()) tracer->add(op_.timing);
    }
  }
  if (op_.kind == TraceOp::Kind::launch) {
    task_->device = op_.device;
    task_->kernel = kernel_;
    op_.kernel = kernel_;
  }
  task_->ops.push_back(std::move(op_));
  task_ = nullptr;
}

void TraceTaskScope::begin(Tracer& tracer, const Task& task) {
  TaskTrace& record = tracer.begin(task);
  record.dependencies = task.dependencies;
  outer_ = current_task_trace;
  current_task_trace = &record;
}
#endif

}  // namespace plexus::detail
