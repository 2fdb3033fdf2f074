#include "tracer.hpp"

namespace plexus::detail {

std::atomic<Tracer*> active_tracer_slot{nullptr};
thread_local TaskTrace* current_task_trace = nullptr;

TaskTrace& Tracer::begin(const Task& task) {
  std::lock_guard lock(mutex_);
  TaskTrace& record = records_.emplace_back();
  record.event = task.event;
  record.thread = std::this_thread::get_id();
  return record;
}

bool activate_tracer(Tracer* tracer) {
  Tracer* none = nullptr;
  return active_tracer_slot.compare_exchange_strong(none, tracer, std::memory_order_acq_rel);
}

void deactivate_tracer(Tracer* tracer) {
  Tracer* expected = tracer;
  active_tracer_slot.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel);
}

TraceOpScope::TraceOpScope(TraceOp::Kind kind, const std::string& device, std::size_t bytes)
    : task_(current_task_trace) {
  if (!task_) return;
  op_.kind = kind;
  op_.device = device;
  op_.bytes = bytes;
  op_.start = TaskEvent::clock::now();
}

void TraceOpScope::finish() {
  if (!task_) return;
  op_.end = TaskEvent::clock::now();
  task_->ops.push_back(std::move(op_));
  task_ = nullptr;
}

void run_traced(Tracer& tracer, Task& task, DeviceQueue* queue,
                void (*run)(Task&, DeviceQueue*)) {
  TaskTrace& record = tracer.begin(task);
  TaskTrace* outer = current_task_trace;  // a task run from inside another (inline runs)
  current_task_trace = &record;
  // Dependencies are complete here: place_task() ran before the task can run.
  record.dependencies = task.dependencies;
  struct Restore {
    TaskTrace* outer;
    ~Restore() { current_task_trace = outer; }
  } restore{outer};
  run(task, queue);
}

}  // namespace plexus::detail
