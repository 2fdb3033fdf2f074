// Tracer: records every task the schedulers run (through run_task_now) with its copies and
// launches (with their nd-range), and the runtime's own work meanwhile (compiles, module
// loads, allocations: TraceSpanScope), and writes them at runtime shutdown as Chrome/Perfetto trace-event JSON plus a
// compact summary (trace_writer.hpp). Internal to the core.
//
// Enabled by `[trace] file = "..."` or PLEXUS_TRACE=FILE. One runtime traces at a time: the
// active tracer is a process-wide pointer (nullptr when tracing is off, so the launch path
// pays one branch), so it also records tasks other runtimes run meanwhile. A task's record is owned
// by the tracer and reached by the thread that runs it through current_task_trace (set only while
// the task runs on that thread). Times: the host steady clock (TaskEvent::clock); a copy or launch
// also keeps its queue's device timing (DeviceQueue::take_timing; timing is turned on for the
// queues a traced op uses), read when the trace is written, or earlier, when the runtime whose
// device timed it shuts down first (settle_timings: a timing must not outlive its device, and
// the backend plugin may be unloaded with that runtime). Thread-safety:
// begin() and the records' ops from any thread (each record is filled by the one thread running its
// task); records() after every task is done.
//
// PLEXUS_TRACE_HOOKS=0 (cmake -DPLEXUS_TRACE_HOOKS=OFF) compiles the hooks out: the scopes
// below are empty and nothing is recorded (to measure what the hooks cost when off).
#pragma once

#ifndef PLEXUS_TRACE_HOOKS
#define PLEXUS_TRACE_HOOKS 1
#endif

#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "plexus/device_queue.hpp"
#include "plexus/nd_range.hpp"
#include "plexus/task.hpp"

namespace plexus::detail {

// A kernel inside a replayed command graph (graph.hpp): the graph's launch op lists them.
struct TraceGraphNode {
  std::string kernel;
  NdRange range;
};

// An op's device timing (a backend's OperationTiming) and the device it came from: read on
// demand, or settled (read once, the backend's object released) before that device goes.
// Thread-safety: any thread (a mutex).
class TraceTiming {
 public:
  TraceTiming(const Device* device, std::shared_ptr<const OperationTiming> timing)
      : device_(device), timing_(std::move(timing)) {}
  const Device* device() const { return device_; }
  // The device times: settled ones, else read now; nullopt when the device had none.
  std::optional<DeviceTimes> times();
  // Reads the times now (the op is done) and lets the backend's object go.
  void settle();

 private:
  std::mutex mutex_;
  const Device* device_;
  std::shared_ptr<const OperationTiming> timing_;  // until settled
  std::optional<DeviceTimes> settled_;
};

struct TraceOp {
  enum class Kind { copy_to_device, copy_to_host, launch };
  Kind kind = Kind::launch;
  std::string device;  // the device whose queue ran it
  std::size_t bytes = 0;
  TaskEvent::clock::time_point start, end;  // host times around the backend calls
  std::shared_ptr<TraceTiming> timing;      // device times, when the queue has them
  std::optional<NdRange> range;                   // a kernel launch's
  std::string kernel;                 // a launch's kernel (or graph) name
  std::vector<TraceGraphNode> nodes;  // a replayed graph's launch: its kernels, in order
};

// The runtime's own work, outside any task's copies and launches: compiling a program
// (source to a binary, or an image to another format), loading one on a device, fusing
// kernels, allocating and freeing a buffer's device memory.
struct TraceSpan {
  enum class Kind { compile, translate, load_module, fuse, allocate, free };
  Kind kind = Kind::compile;
  std::string device;  // where it happened; empty for compiles (no device)
  std::string detail;  // what: the target format and options, the module's format
  std::size_t bytes = 0;
  std::thread::id thread;
  TaskEvent::clock::time_point start, end;
};

struct TaskTrace {
  std::shared_ptr<TaskEvent> event;                      // submit, start, end times and status
  std::vector<std::shared_ptr<TaskEvent>> dependencies;  // explicit and from placement
  std::string device = "host";  // the placement: a device's name, "host" for host work
  std::string kernel;           // kernels only
  std::thread::id thread;       // the worker that ran it: one track per device and worker
  std::vector<TraceOp> ops;
};

class Tracer {
 public:
  Tracer(std::string file, std::string scheduler)
      : file_(std::move(file)), scheduler_(std::move(scheduler)) {}

  const std::string& file() const { return file_; }
  const std::string& scheduler() const { return scheduler_; }

  // A new record for `task`, about to run on this thread.
  TaskTrace& begin(const Task& task);
  const std::deque<TaskTrace>& records() const { return records_; }
  void add(TraceSpan span);
  const std::vector<TraceSpan>& spans() const { return spans_; }
  // An op's device timing, kept until its device's runtime shuts down or the trace is written.
  void add(std::shared_ptr<TraceTiming> timing);
  // Settles the timings of ops on `devices` (their runtime shuts down, its tasks all done:
  // the devices, and perhaps their backend, go next). Any thread.
  void settle_timings(const std::vector<Device*>& devices);

 private:
  std::string file_, scheduler_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<TraceTiming>> unsettled_;  // timings not settled yet
  std::deque<TaskTrace> records_;  // stable addresses
  std::vector<TraceSpan> spans_;   // in the order they ended
};

// The tracer of the runtime that traces, or nullptr. A glance only (whether tracing is on):
// a hook that uses the tracer holds it (TracerHold).
extern std::atomic<Tracer*> active_tracer_slot;
inline Tracer* active_tracer() { return active_tracer_slot.load(std::memory_order_acquire); }
// Makes `tracer` the active one; false (nothing changed) when another runtime traces.
bool activate_tracer(Tracer* tracer);
// Stops `tracer` being the active one, then waits until no hook of another thread holds it
// (a task of another runtime recorded in it runs to its end) for at most `limit`; false when
// one still holds it then (the tracer must not be written nor freed: it is left allocated).
inline constexpr std::chrono::seconds tracer_release_limit{10};
bool deactivate_tracer(Tracer* tracer, std::chrono::milliseconds limit = tracer_release_limit);

// The active tracer, held while the object lives: deactivate_tracer waits for it. Costs
// one load and branch when tracing is off (inline: every task constructs one). Any thread;
// not movable.
class TracerHold {
 public:
  TracerHold() {
    if (active_tracer()) [[unlikely]]
      acquire();
  }
  ~TracerHold() {
    if (tracer_) [[unlikely]]
      release();
  }
  TracerHold(const TracerHold&) = delete;
  TracerHold& operator=(const TracerHold&) = delete;
  Tracer* get() const { return tracer_; }

 private:
  void acquire();
  void release() noexcept;
  Tracer* tracer_ = nullptr;
};

// The record of the task running on this thread, or nullptr (tracing off, or no task).
extern thread_local TaskTrace* current_task_trace;

// Records an op of the current task (when traced) from construction to finish(), and the
// device timing of what `queue` runs meanwhile (timing is turned on for `queue`; nullptr:
// host times only, e.g. for work spread over several queues). A launch
// also names the task's device and kernel; without device times it is written as lasting
// until the task's end (the launching queue is waited for, or completes the task, once the
// kernel is done).
#if PLEXUS_TRACE_HOOKS
class TraceOpScope {
 public:
  TraceOpScope(TraceOp::Kind kind, DeviceQueue* queue, const Device& device, std::size_t bytes,
               const std::string& kernel = {});
  void finish();                      // the op's end (also on destruction when not called)
  void range(const NdRange& range) {  // a launch's nd-range
    if (task_) [[unlikely]]
      op_.range = range;
  }
  // A replayed graph's launch: its next kernel (nothing when the op is not recorded).
  void node(const std::string& kernel, const NdRange& range) {
    if (task_) [[unlikely]]
      op_.nodes.push_back({kernel, range});
  }
  void cancel() { task_ = nullptr; }  // the op did not happen: records nothing
  ~TraceOpScope() { finish(); }
  TraceOpScope(const TraceOpScope&) = delete;
  TraceOpScope& operator=(const TraceOpScope&) = delete;

 private:
  TaskTrace* task_;
  const Device* device_ = nullptr;
  DeviceQueue* timed_queue_ = nullptr;  // the queue, when its timing is on
  TraceOp op_;
  std::string kernel_;
};

// While alive, a record of `task` (begun when a tracer is active) is current on this thread:
// construct it where a scheduler helper starts running or enqueuing a task. The record
// takes the task's dependencies as they are now (place_task() has added its own).
class TraceTaskScope {
 public:
  explicit TraceTaskScope(const Task& task) {
    if (Tracer* tracer = hold_.get()) [[unlikely]]
      begin(*tracer, task);
  }
  ~TraceTaskScope() {
    if (hold_.get()) [[unlikely]]  // begun
      current_task_trace = outer_;
  }
  TraceTaskScope(const TraceTaskScope&) = delete;
  TraceTaskScope& operator=(const TraceTaskScope&) = delete;

 private:
  void begin(Tracer& tracer, const Task& task);
  TracerHold hold_;  // the record is the tracer's: held until the task is done with it
  TaskTrace* outer_ = nullptr;  // a task run from inside another (inline runs)
};
#else
class TraceOpScope {
 public:
  TraceOpScope(TraceOp::Kind, DeviceQueue*, const Device&, std::size_t,
               const std::string& = {}) {}
  void finish() {}
  void cancel() {}
  void range(const NdRange&) {}
  void node(const std::string&, const NdRange&) {}
};

class TraceTaskScope {
 public:
  explicit TraceTaskScope(const Task&) {}
};
#endif

#if PLEXUS_TRACE_HOOKS
// Records a TraceSpan from construction to destruction, when a tracer is active at
// construction (nothing else is done when none is); one that throws is recorded too (its
// time was spent). Any thread.
class TraceSpanScope {
 public:
  TraceSpanScope(TraceSpan::Kind kind, const std::string& device, const std::string& detail,
                 std::size_t bytes = 0)
      : tracer_(active_tracer()) {
    if (tracer_) [[unlikely]]
      begin(kind, device, detail, bytes);
  }
  ~TraceSpanScope() {
    if (tracer_) [[unlikely]]
      end();
  }
  TraceSpanScope(const TraceSpanScope&) = delete;
  TraceSpanScope& operator=(const TraceSpanScope&) = delete;

 private:
  void begin(TraceSpan::Kind kind, const std::string& device, const std::string& detail,
             std::size_t bytes);
  void end() noexcept;
  Tracer* tracer_;
  TraceSpan span_;
};
#else
class TraceSpanScope {
 public:
  TraceSpanScope(TraceSpan::Kind, const std::string&, const std::string&, std::size_t = 0) {}
};
#endif

}  // namespace plexus::detail
