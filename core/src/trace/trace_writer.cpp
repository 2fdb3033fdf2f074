#include "trace_writer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "plexus/error.hpp"

namespace plexus::detail {
namespace {

using time_point = TaskEvent::clock::time_point;

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

const char* op_name(TraceOp::Kind kind) {
  switch (kind) {
    case TraceOp::Kind::copy_to_device:
      return "copy host->device";
    case TraceOp::Kind::copy_to_host:
      return "copy device->host";
    case TraceOp::Kind::launch:
      return "launch";
  }
  return "op";
}

const char* span_name(TraceSpan::Kind kind) {
  switch (kind) {
    case TraceSpan::Kind::compile:
      return "compile";
    case TraceSpan::Kind::translate:
      return "translate";
    case TraceSpan::Kind::load_module:
      return "load module";
    case TraceSpan::Kind::fuse:
      return "fuse";
    case TraceSpan::Kind::allocate:
      return "allocate";
    case TraceSpan::Kind::free:
      return "free";
  }
  return "runtime";
}

std::string size_list(const std::array<std::size_t, 3>& sizes, std::size_t dimensions) {
  std::string list = "[";
  for (std::size_t d = 0; d < dimensions; ++d) list += (d ? "," : "") + std::to_string(sizes[d]);
  return list + "]";
}

// A launch's nd-range as trace args: global and local sizes (local null: the backend
// chose), offset, per used dimension.
std::string range_args(const NdRange& range) {
  const std::size_t dimensions = std::clamp<std::size_t>(range.dimensions, 1, 3);
  return ",\"global\":" + size_list(range.global, dimensions) + ",\"local\":" +
         (range.has_local_size() ? size_list(range.local, dimensions) : std::string("null")) +
         ",\"offset\":" + size_list(range.offset, dimensions);
}

// Total length of the union of [start, end) intervals.
double union_length(std::vector<std::pair<double, double>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0, open = 0, close = -1;
  for (auto [start, end] : intervals) {
    if (start > close) {
      if (close > open) total += close - open;
      open = start;
      close = end;
    } else {
      close = std::max(close, end);
    }
  }
  if (close > open) total += close - open;
  return total;
}

// A task's times as written (µs from the first submission) and why it waited while ready:
// its queue (track) was still running an earlier task until `queue_free`, and the rest of
// the wait, from then (or from ready) to its start, is the scheduler's (noticing that it is
// ready, picking a worker, the launch path).
struct TaskTimes {
  double submit = 0, ready = 0, start = 0, end = 0;
  double queue_free = 0;  // when the earlier tasks of its track had all ended
  long long busy_with = -1;  // the earlier task of its track that ended last, if after ready
  double queue_wait() const { return std::max(0.0, std::min(queue_free, start) - ready); }
  double scheduler_wait() const { return std::max(0.0, start - std::max(ready, queue_free)); }
};

struct RuntimeTotals {
  std::size_t compiles = 0, module_loads = 0, allocations = 0, frees = 0;
  double compile_us = 0, module_load_us = 0, allocate_us = 0;
  std::size_t allocated_bytes = 0;
};

struct DeviceTotals {
  int pid = 0;
  std::map<std::thread::id, int> tracks;  // worker -> tid
  std::size_t tasks = 0;
  double work_us = 0;
  std::vector<std::pair<double, double>> intervals;
};

struct Direction {
  std::size_t count = 0, bytes = 0;
};

class Writer {
 public:
  explicit Writer(const Tracer& tracer) : tracer_(tracer), records_(tracer.records()) {
    if (records_.empty()) return;
    origin_ = records_.front().event->submitted_at();
    for (std::size_t i = 0; i < records_.size(); ++i) {
      origin_ = std::min(origin_, records_[i].event->submitted_at());
      ids_[records_[i].event.get()] = i;
    }
    for (std::size_t i = 0; i < records_.size(); ++i) times_.push_back(task_times(records_[i]));
    explain_waits();
  }

  std::string trace() {
    std::ostringstream out;
    out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
    std::vector<std::string> events;
    for (std::size_t i = 0; i < records_.size(); ++i) add_task(i, events);
    add_spans(events);
    add_flows(events);
    add_names(events);
    for (std::size_t i = 0; i < events.size(); ++i) out << (i ? ",\n" : "") << events[i];
    out << "\n],\"otherData\":" << totals_json() << "}\n";
    return out.str();
  }

  std::string summary() {
    return "{\"format\":\"plexus-trace-summary\",\"version\":1,\"trace\":" +
           quoted(tracer_.file()) + "," + totals_json().substr(1) + "\n";
  }

 private:
  double us(time_point at) const {
    return std::chrono::duration<double, std::micro>(at - origin_).count();
  }
  int pid_of(const std::string& process) {
    auto [found, added] = pids_.try_emplace(process, 0);
    if (added) found->second = static_cast<int>(pids_.size());
    return found->second;
  }
  DeviceTotals& device(const std::string& name) {
    auto [found, added] = devices_.try_emplace(name);
    if (added) found->second.pid = pid_of(name);
    return found->second;
  }

  TaskTimes task_times(const TaskTrace& record) const {
    const TaskEvent& event = *record.event;
    TaskTimes times;
    times.submit = us(event.submitted_at());
    times.end = us(event.finished_at());
    times.ready = times.submit;
    for (const auto& dependency : record.dependencies)
      if (dependency) times.ready = std::max(times.ready, us(dependency->finished_at()));
    // A task enqueued behind work still in its queue (start_task) starts when that ends.
    times.start = std::min(times.end, std::max(us(event.started_at()), times.ready));
    times.queue_free = times.ready;
    return times;
  }

  // Per track (device and worker), in start order: the time the earlier tasks had all
  // ended, and which of them ended last when that was after the task became ready.
  void explain_waits() {
    std::map<std::pair<std::string, std::thread::id>, std::vector<std::size_t>> tracks;
    for (std::size_t i = 0; i < records_.size(); ++i)
      tracks[{records_[i].device, records_[i].thread}].push_back(i);
    for (auto& [track, ids] : tracks) {
      std::stable_sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) {
        return times_[a].start < times_[b].start;
      });
      double free_at = -1;
      long long last = -1;
      for (std::size_t id : ids) {
        TaskTimes& times = times_[id];
        if (last >= 0 && free_at > times.ready) {
          times.queue_free = free_at;
          times.busy_with = last;
        }
        if (times.end > free_at) {
          free_at = times.end;
          last = static_cast<long long>(id);
        }
      }
    }
  }
  int track(DeviceTotals& totals, std::thread::id thread) {
    auto [found, added] = totals.tracks.try_emplace(thread, 0);
    if (added) found->second = static_cast<int>(totals.tracks.size());
    return found->second;
  }
  std::pair<int, int> where(const TaskTrace& record) {
    DeviceTotals& totals = device(record.device);
    return {totals.pid, track(totals, record.thread)};
  }

  void add_task(std::size_t id, std::vector<std::string>& events) {
    const TaskTrace& record = records_[id];
    const TaskEvent& event = *record.event;
    const TaskTimes& task = times_[id];
    const double submit = task.submit, ready = task.ready, start = task.start, end = task.end;
    std::string deps;
    for (const auto& dependency : record.dependencies) {
      if (!dependency) continue;
      auto found = ids_.find(dependency.get());
      if (found == ids_.end()) continue;  // not a task (a host view's release)
      deps += (deps.empty() ? "" : ",") + std::to_string(found->second);
      edges_.emplace_back(found->second, id);
    }
    starts_[id] = start;
    auto [pid, tid] = where(record);
    DeviceTotals& totals = device(record.device);
    totals.tasks++;
    totals.work_us += end - start;
    totals.intervals.emplace_back(start, end);
    makespan_ = std::max(makespan_, end);
    const bool failed = event.status() == TaskStatus::failed;
    failed_ += failed;
    kernels_ += !record.kernel.empty();
    std::size_t bytes = 0;
    for (const auto& op : record.ops) {
      const OpTimes times = op_times(op, start, end);
      const std::string clock = times.device ? ",\"clock\":\"device\"" : ",\"clock\":\"host\"";
      device_clock_ops_ += times.device;
      if (op.kind == TraceOp::Kind::launch) {
        // A task's launches are named by their own kernel (a graph launched one by one on a
        // device without device graphs has several).
        events.push_back(slice(op.kernel.empty() ? "launch" : "launch " + op.kernel,
                               "launch", pid, tid, times.start, times.end,
                               "\"task\":" + std::to_string(id) + clock +
                                   (op.range ? range_args(*op.range) : std::string())));
        add_graph_nodes(op, id, pid, tid, times, events);
        continue;
      }
      bytes += op.bytes;
      Direction& direction = op.kind == TraceOp::Kind::copy_to_device ? to_device_ : to_host_;
      direction.count++;
      direction.bytes += op.bytes;
      events.push_back(slice(op_name(op.kind), "copy", pid, tid, times.start, times.end,
                             "\"task\":" + std::to_string(id) +
                                 ",\"bytes\":" + std::to_string(op.bytes) +
                                 ",\"device\":" + quoted(op.device) + clock));
    }
    events.push_back(slice(
        event.label(), "task", pid, tid, start, end,
        "\"id\":" + std::to_string(id) + ",\"submit_us\":" + number(submit) + ",\"ready_us\":" +
            number(ready) + ",\"start_us\":" + number(start) + ",\"end_us\":" + number(end) +
            ",\"device\":" + quoted(record.device) + ",\"kernel\":" + quoted(record.kernel) +
            ",\"bytes\":" + std::to_string(bytes) + ",\"status\":\"" +
            (failed ? "failed" : "complete") + "\",\"dependencies\":[" + deps + "]" +
            wait_args(task)));
    // The part of its wait that its queue was free: the scheduler's, drawn before it.
    if (const double from = std::max(ready, task.queue_free); start - from >= 0.001) {
      events.push_back(slice("waiting for the scheduler", "wait", pid, tid, from, start,
                             "\"task\":" + std::to_string(id)));
    }
    waited_us_ += start - ready;
    queue_wait_us_ += task.queue_wait();
    scheduler_wait_us_ += task.scheduler_wait();
  }

  // Why a task waited while ready: waited_us = wait_queue_busy_us (its queue still ran
  // queue_busy_with) + wait_scheduler_us (the rest).
  static std::string wait_args(const TaskTimes& task) {
    return ",\"waited_us\":" + number(task.start - task.ready) +
           ",\"wait_queue_busy_us\":" + number(task.queue_wait()) +
           ",\"wait_scheduler_us\":" + number(task.scheduler_wait()) +
           ",\"queue_busy_with\":" +
           (task.busy_with >= 0 ? std::to_string(task.busy_with) : std::string("null"));
  }

  // The runtime's own work: on a track per thread of its device's process ("compiler" for
  // compiles and fusion, which have no device), and per device a counter of the bytes its
  // buffers hold.
  void add_spans(std::vector<std::string>& events) {
    std::vector<const TraceSpan*> spans;
    for (const TraceSpan& span : tracer_.spans()) spans.push_back(&span);
    std::stable_sort(spans.begin(), spans.end(),
                     [](const TraceSpan* a, const TraceSpan* b) { return a->start < b->start; });
    std::map<std::string, std::size_t> held;  // per device: bytes allocated, not freed
    for (const TraceSpan* span : spans) {
      const std::string process = span->device.empty() ? "compiler" : span->device;
      const int pid = pid_of(process);
      auto [track, added] = span_tracks_[process].try_emplace(
          span->thread, 1000 + static_cast<int>(span_tracks_[process].size()));
      const double start = us(span->start), end = us(span->end);
      events.push_back(slice(span_name(span->kind), "runtime", pid, track->second, start, end,
                             "\"detail\":" + quoted(span->detail) +
                                 ",\"bytes\":" + std::to_string(span->bytes)));
      switch (span->kind) {
        case TraceSpan::Kind::compile:
        case TraceSpan::Kind::translate:
        case TraceSpan::Kind::fuse:
          runtime_.compiles++;
          runtime_.compile_us += end - start;
          break;
        case TraceSpan::Kind::load_module:
          runtime_.module_loads++;
          runtime_.module_load_us += end - start;
          break;
        case TraceSpan::Kind::allocate:
        case TraceSpan::Kind::free: {
          const bool allocate = span->kind == TraceSpan::Kind::allocate;
          std::size_t& bytes = held[process];
          bytes = allocate ? bytes + span->bytes : bytes - std::min(bytes, span->bytes);
          if (allocate) {
            runtime_.allocations++;
            runtime_.allocate_us += end - start;
            runtime_.allocated_bytes += span->bytes;
          } else {
            runtime_.frees++;
          }
          events.push_back("{\"ph\":\"C\",\"name\":\"buffer memory\",\"pid\":" +
                           std::to_string(pid) + ",\"ts\":" + number(allocate ? end : start) +
                           ",\"args\":{\"bytes\":" + std::to_string(bytes) + "}}");
          break;
        }
      }
    }
  }

  struct OpTimes {
    double start, end;
    bool device;  // from the device's clock
  };
  // An op's times in a task written from `start` to `end`: the device's (aligned to the host
  // clock) when its queue timed it, clamped into the task, since the alignment has an error
  // of a few microseconds; else host times around the backend calls, a launch lasting until
  // the task's end (its queue was waited for, or completed the task, once it was done).
  OpTimes op_times(const TraceOp& op, double start, double end) const {
    if (op.timing) {
      if (const auto device = op.timing->times()) {
        const double from = std::clamp(us(device->start), start, end);
        return {from, std::clamp(us(device->end), from, end), true};
      }
    }
    if (op.kind == TraceOp::Kind::launch) return {std::max(start, us(op.start)), end, false};
    return {us(op.start), us(op.end), false};
  }

  // A replayed graph's kernels, drawn inside its launch in order, each over an equal share
  // of it: a device graph runs as one operation, its nodes are not timed one by one.
  void add_graph_nodes(const TraceOp& op, std::size_t id, int pid, int tid, const OpTimes& times,
                       std::vector<std::string>& events) {
    const std::size_t count = op.nodes.size();
    const double share = count ? (times.end - times.start) / double(count) : 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double from = times.start + share * double(i);
      events.push_back(slice("kernel " + op.nodes[i].kernel, "graph_node", pid, tid, from,
                             from + share,
                             "\"task\":" + std::to_string(id) + ",\"node\":" +
                                 std::to_string(i + 1) + ",\"of\":" + std::to_string(count) +
                                 ",\"timing\":\"an equal share of the replayed graph\"" +
                                 range_args(op.nodes[i].range)));
    }
    graph_nodes_ += count;
  }

  static std::string slice(const std::string& name, const char* category, int pid, int tid,
                           double start, double end, const std::string& args) {
    return "{\"ph\":\"X\",\"name\":" + quoted(name) + ",\"cat\":\"" + category +
           "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
           ",\"ts\":" + number(start) + ",\"dur\":" + number(std::max(0.0, end - start)) +
           ",\"args\":{" + args + "}}";
  }

  void add_flows(std::vector<std::string>& events) {
    std::size_t flow = 0;
    for (auto [from, to] : edges_) {
      const TaskTrace& source = records_[from];
      const TaskTrace& target = records_[to];
      // The arrow leaves the dependency just before its end and enters the task at its start.
      const double start = starts_[from], end = us(source.event->finished_at());
      const double leave = std::max(start, end - 0.001);
      auto [source_pid, source_tid] = where(source);
      auto [target_pid, target_tid] = where(target);
      const std::string id = std::to_string(++flow);
      events.push_back("{\"ph\":\"s\",\"name\":\"dependency\",\"cat\":\"dependency\",\"id\":" + id +
                       ",\"pid\":" + std::to_string(source_pid) +
                       ",\"tid\":" + std::to_string(source_tid) + ",\"ts\":" + number(leave) + "}");
      events.push_back(
          "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"dependency\",\"cat\":"
          "\"dependency\",\"id\":" +
          id + ",\"pid\":" + std::to_string(target_pid) + ",\"tid\":" + std::to_string(target_tid) +
          ",\"ts\":" + number(starts_[to]) + "}");
    }
  }

  void add_names(std::vector<std::string>& events) {
    for (const auto& [name, pid] : pids_) {
      events.push_back("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" +
                       std::to_string(pid) + ",\"args\":{\"name\":" + quoted(name) + "}}");
    }
    for (const auto& [name, tracks] : span_tracks_) {
      for (const auto& [thread, tid] : tracks) {
        events.push_back("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" +
                         std::to_string(pids_.at(name)) + ",\"tid\":" + std::to_string(tid) +
                         ",\"args\":{\"name\":\"runtime " + std::to_string(tid - 999) + "\"}}");
      }
    }
    for (const auto& [name, totals] : devices_) {
      for (const auto& [thread, tid] : totals.tracks) {
        events.push_back("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" +
                         std::to_string(totals.pid) + ",\"tid\":" + std::to_string(tid) +
                         ",\"args\":{\"name\":\"queue " + std::to_string(tid) + "\"}}");
      }
    }
  }

  std::string totals_json() {
    std::string devices;
    for (auto& [name, totals] : devices_) {
      const double busy = union_length(totals.intervals);
      devices += std::string(devices.empty() ? "" : ",") + "\n  {\"name\":" + quoted(name) +
                 ",\"tasks\":" + std::to_string(totals.tasks) +
                 ",\"queues\":" + std::to_string(totals.tracks.size()) +
                 ",\"busy_us\":" + number(busy) + ",\"work_us\":" + number(totals.work_us) +
                 ",\"utilisation\":" + number(makespan_ > 0 ? busy / makespan_ : 0) + "}";
    }
    auto direction = [](const Direction& d) {
      return "{\"count\":" + std::to_string(d.count) + ",\"bytes\":" + std::to_string(d.bytes) +
             "}";
    };
    return "{\"scheduler\":" + quoted(tracer_.scheduler()) +
           ",\"makespan_us\":" + number(makespan_) +
           ",\"tasks\":" + std::to_string(records_.size()) +
           ",\"kernels\":" + std::to_string(kernels_) +
           ",\"graph_nodes\":" + std::to_string(graph_nodes_) +
           ",\"failed_tasks\":" + std::to_string(failed_) +
           ",\"dependencies\":" + std::to_string(edges_.size()) +
           ",\"device_clock_ops\":" + std::to_string(device_clock_ops_) +
           ",\"copies\":" + std::to_string(to_device_.count + to_host_.count) +
           ",\"bytes_moved\":" + std::to_string(to_device_.bytes + to_host_.bytes) +
           ",\"host_to_device\":" + direction(to_device_) +
           ",\"device_to_host\":" + direction(to_host_) + ",\"waited_us\":" + number(waited_us_) +
           ",\"wait_queue_busy_us\":" + number(queue_wait_us_) +
           ",\"wait_scheduler_us\":" + number(scheduler_wait_us_) +
           ",\"runtime\":{\"compiles\":" + std::to_string(runtime_.compiles) +
           ",\"compile_us\":" + number(runtime_.compile_us) +
           ",\"module_loads\":" + std::to_string(runtime_.module_loads) +
           ",\"module_load_us\":" + number(runtime_.module_load_us) +
           ",\"allocations\":" + std::to_string(runtime_.allocations) +
           ",\"allocated_bytes\":" + std::to_string(runtime_.allocated_bytes) +
           ",\"allocate_us\":" + number(runtime_.allocate_us) +
           ",\"frees\":" + std::to_string(runtime_.frees) + "}" + ",\"devices\":[" + devices +
           "]}";
  }

  const Tracer& tracer_;
  const std::deque<TaskTrace>& records_;
  time_point origin_{};
  std::unordered_map<const TaskEvent*, std::size_t> ids_;
  std::unordered_map<std::size_t, double> starts_;  // by id, as written
  std::vector<TaskTimes> times_;                     // by id
  std::map<std::string, int> pids_;                  // process (device, "compiler") -> pid
  std::map<std::string, DeviceTotals> devices_;
  std::map<std::string, std::map<std::thread::id, int>> span_tracks_;  // process -> thread -> tid
  RuntimeTotals runtime_;
  double waited_us_ = 0, queue_wait_us_ = 0, scheduler_wait_us_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> edges_;
  Direction to_device_, to_host_;
  double makespan_ = 0;
  std::size_t failed_ = 0, kernels_ = 0, device_clock_ops_ = 0, graph_nodes_ = 0;
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    throw error(error_category::io, "cannot write the trace file '" + path +
                                        "' (check that its directory exists and is writable)");
  }
}

}  // namespace

std::string summary_path(const std::string& trace_file) {
  const std::string suffix = ".json";
  std::string stem = trace_file;
  if (stem.size() > suffix.size() && stem.ends_with(suffix))
    stem.resize(stem.size() - suffix.size());
  return stem + ".summary.json";
}

void write_trace(const Tracer& tracer) {
  Writer writer(tracer);
  const std::string trace = writer.trace();  // fills the totals the summary reports
  write_file(tracer.file(), trace);
  write_file(summary_path(tracer.file()), writer.summary());
}

}  // namespace plexus::detail
