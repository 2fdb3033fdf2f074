#include "heft_scheduler.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>

#include "compute_gate.hpp"
#include "device_choice.hpp"
#include "history_file.hpp"
#include "lane_load.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/task_execution.hpp"
#include "plexus/thread_start.hpp"
#include "tasks_per_device.hpp"
#include "timed_queue.hpp"

namespace plexus::heft {

namespace {

thread_local const HeftScheduler* running_on = nullptr;  // the scheduler whose worker this is

double bandwidth_option(const ComponentOptions& options) {
  return options.get_number_in_range("bandwidth_gbps", 8.0, min_bandwidth_gbps,
                                     max_bandwidth_gbps) * 1e9;
}

std::string history_option(const ComponentOptions& options) {
  std::string path = options.get_or_env("history", "PLEXUS_HEFT_HISTORY", "");
  if (path.empty()) return path;
  const auto parent = std::filesystem::path(path).parent_path();
  std::error_code ignored;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ignored)) {
    options.error("history", "is \"" + path + "\": the directory '" + parent.string() +
                                 "' does not exist; create it or choose another path");
  }
  return path;
}

}  // namespace

// Tasks of one kind on a device: kernels and work enqueued on its queues (tasks_per_device
// at once), or native work that runs on the scheduler's thread (TaskBody::tasks_at_once).
struct HeftScheduler::Pool {
  std::unique_ptr<ComputeGate> gate;  // at once on the device
  std::size_t capacity = 1;           // tasks at once: the gate's slots + 1 copying in (overlap)
  std::size_t running = 0;            // tasks taken (copying in, waiting or running)
  LaneLoad load{1};                   // estimated work placed here and not yet finished

  Pool() = default;
  Pool(std::size_t slots, std::size_t copying_in)
      : gate(std::make_unique<ComputeGate>(slots)), capacity(slots + copying_in), load(slots) {}
};

struct HeftScheduler::Lane {
  Device* device = nullptr;  // nullptr: the host
  std::string key;           // in the cost model and the history: the device's name (+ #n)
  std::deque<std::shared_ptr<Node>> ready;
  Pool enqueued;   // kernels and native work enqueued on the device's queues
  Pool on_caller;  // native work on the scheduler's thread (a device that runs it so)
  std::vector<std::unique_ptr<DeviceQueue>> idle_queues;  // the device's queues not in use
  double speed = 1.0;                 // prior before measurements: the device's compute units
  DevicePlacements stats;
};

struct HeftScheduler::Node {
  Task task;
  std::size_t lane = 0;
  std::string kernel;     // cost-model key; empty: nothing to measure
  double estimate = 0.0;  // estimated seconds on the lane (transfer + execution)
  std::size_t slot = 0;   // the pool's LaneLoad slot the estimate was placed on
  bool on_caller = false; // runs in the lane's on_caller pool (TaskBody::tasks_at_once)
  std::size_t planned_bytes = 0;
  std::vector<std::pair<std::string, std::size_t>> planned_from;  // bytes by source key
  bool by_model = false;  // placed by the cost model, not round-robin
  bool measures = false;  // sent to its lane to measure its kernel there
  std::uint64_t sequence = 0;
};

struct HeftScheduler::Settings {
  double bandwidth = 0;
  std::string history;
  bool respect_queue_device = false;
  bool prior = true;
  std::chrono::milliseconds calibration_wait{1000};
  TasksPerDevice per_device;
  std::size_t copying_in = 1;
  std::optional<std::int64_t> workers;  // absent: from the devices (the constructor)
};

HeftScheduler::Settings HeftScheduler::read_settings(const ComponentOptions& options) {
  Settings settings;
  settings.bandwidth = bandwidth_option(options);
  settings.history = history_option(options);
  settings.respect_queue_device = options.get<bool>("respect_queue_device", false);
  // "compute_units" (the default) or "none" (round-robin until measured).
  settings.prior =
      options.get_one_of("prior", {"compute_units", "none"}, "compute_units") == "compute_units";
  settings.calibration_wait = std::chrono::milliseconds(
      options.get_in_range("calibration_wait_ms", 1000, 0, max_calibration_wait_ms, "ms"));
  settings.per_device = tasks_per_device_option(options);
  settings.copying_in = options.get<bool>("overlap_transfers", true) ? 1 : 0;
  if (options.contains("workers"))
    settings.workers = options.get_in_range("workers", 0, 0, max_workers);
  return settings;
}

void HeftScheduler::check_options(const ComponentOptions& options) { read_settings(options); }

HeftScheduler::HeftScheduler(PluginContext& context)
    : HeftScheduler(context, read_settings(context.options)) {}

HeftScheduler::HeftScheduler(PluginContext& context, const Settings& settings)
    : model_(settings.bandwidth),
      history_path_(settings.history),
      respect_queue_device_(settings.respect_queue_device) {
  prior_ = settings.prior;
  calibration_wait_ = settings.calibration_wait;
  const TasksPerDevice& per_device = settings.per_device;
  const std::size_t copying_in = settings.copying_in;
  auto host = std::make_unique<Lane>();
  host->key = host->stats.name = "host";
  lanes_.push_back(std::move(host));
  for (Device* device : available_devices(context.components)) {
    auto lane = std::make_unique<Lane>();
    lane->device = lane->stats.device = device;
    const std::size_t slots = tasks_per_device_for(per_device, device->info());
    lane->enqueued = Pool(slots, copying_in);
    if (device->native_work_on_caller())
      lane->on_caller = Pool(std::max<std::size_t>(1, device->info().compute_units), copying_in);
    lane->speed = std::max<double>(1.0, device->info().compute_units);
    lane->stats.name = device->info().name;
    std::size_t same = 1;
    for (const auto& other : lanes_) same += other->stats.name == lane->stats.name;
    lane->key = same == 1 ? lane->stats.name : lane->stats.name + " #" + std::to_string(same);
    logger().debug("heft: '{}' ({}) runs {} kernel{} at once", lane->key,
                   to_string(device->info().type), slots, slots == 1 ? "" : "s");
    lanes_.push_back(std::move(lane));
  }
  if (!history_path_.empty()) {
    model_.merge(load_history(history_path_));
    logger().debug("heft: measurements from '{}' ({} devices)", history_path_,
                   model_.snapshot().size());
  }
  const auto hardware = static_cast<std::int64_t>(std::thread::hardware_concurrency());
  std::int64_t busiest = 1;  // the host lane: one at a time is enough to make progress
  for (std::size_t i = 1; i < lanes_.size(); ++i) {
    const Lane& lane = *lanes_[i];
    busiest += static_cast<std::int64_t>(lane.enqueued.capacity +
                                         (lane.on_caller.gate ? lane.on_caller.capacity : 0));
  }
  std::int64_t count =
      settings.workers.value_or(std::min(std::max<std::int64_t>(hardware, busiest), max_workers));
  if (count == 0) count = 1;
  // Fewer workers when the system refuses some (a warning); none: plexus::error(resource).
  start_threads(workers_, static_cast<std::size_t>(count), [this](std::size_t) { work(); },
                "scheduler heft: worker threads", true);
}

HeftScheduler::~HeftScheduler() {
  {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [this] { return outstanding_ == 0; });
    stopping_ = true;
  }
  ready_cv_.notify_all();
  for (auto& worker : workers_) worker.join();
  for (auto& lane : lanes_) lane->idle_queues.clear();  // before the devices' release
  log_summary();
  save_history();
}

void HeftScheduler::log_summary() const {
  std::string text;
  for (const auto& lane : lanes_) {
    const DevicePlacements& stats = lane->stats;
    if (stats.tasks == 0) continue;
    text += fmt::format("{}'{}' {} ({} by model, {} B in, busy {:.3f} s, {} queue{})",
                        text.empty() ? "" : "; ", lane->key, stats.tasks, stats.by_model,
                        stats.transfer_bytes, stats.busy_seconds, stats.queues,
                        stats.queues == 1 ? "" : "s");
  }
  if (!text.empty()) logger().info("heft: tasks per device: {}", text);
}

void HeftScheduler::save_history() noexcept {
  if (history_path_.empty()) return;
  try {
    heft::save_history(history_path_, model_.snapshot());
    logger().debug("heft: measurements written to '{}'", history_path_);
  } catch (const std::exception& failure) {
    logger().error("heft: the measurements were not saved: {}", failure.what());
  }
}

double HeftScheduler::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

std::string HeftScheduler::source_key(const Device* from) const {
  if (!from) return host_memory_key;
  const std::size_t lane = lane_of(from);
  return lane < lanes_.size() ? lanes_[lane]->key : from->info().name;
}

void HeftScheduler::record_transfers_from(const Node& node, const std::string& key,
                                          double seconds) {
  // The copy phase's time, shared among the sources by their estimated part of it.
  std::vector<double> parts;
  double total = 0.0;
  for (const auto& [from, bytes] : node.planned_from) {
    parts.push_back(static_cast<double>(bytes) / model_.bandwidth(from, key));
    total += parts.back();
  }
  if (!(total > 0.0)) return;
  for (std::size_t i = 0; i < parts.size(); ++i)
    model_.record_transfer(node.planned_from[i].first, key, node.planned_from[i].second,
                           seconds * parts[i] / total);
}

HeftScheduler::Pool& HeftScheduler::pool_of(Lane& lane, const Node& node) {
  return node.on_caller ? lane.on_caller : lane.enqueued;
}

const HeftScheduler::Pool& HeftScheduler::pool_for(const Lane& lane, const TaskBody& body) {
  return lane.device && body.tasks_at_once(*lane.device) > 0 ? lane.on_caller : lane.enqueued;
}

std::size_t HeftScheduler::lane_of(const Device* device) const {
  for (std::size_t i = 0; i < lanes_.size(); ++i) {
    if (lanes_[i]->device == device) return i;
  }
  return lanes_.size();
}

double HeftScheduler::ready_time(const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                                 double at) const {
  double ready = at;
  for (const auto& dependency : dependencies) {
    if (!dependency || dependency->is_done()) continue;
    const auto found = finish_estimates_.find(dependency.get());
    if (found != finish_estimates_.end()) ready = std::max(ready, found->second);
  }
  return ready;
}

void HeftScheduler::decide(Node& node) {
  const TaskBody& body = *node.task.body;
  double at = now();
  if (body.runs_on_host()) {
    node.lane = 0;
    auto dependencies = body.preview_dependencies(nullptr);
    dependencies.insert(dependencies.end(), node.task.dependencies.begin(),
                        node.task.dependencies.end());
    std::lock_guard lock(mutex_);
    finish_estimates_[node.task.event.get()] = ready_time(dependencies, at);
    return;
  }
  std::vector<std::size_t> lanes;
  if (Device* preferred = body.preferred_device(); respect_queue_device_ && preferred) {
    lanes.push_back(lane_of(preferred));
    if (lanes.back() == lanes_.size()) {
      throw error(error_category::invalid_argument, body.name() + ": its queue's device '" +
                                                        preferred->info().name +
                                                        "' is not one of the scheduler's devices");
    }
  } else {
    for (std::size_t i = 1; i < lanes_.size(); ++i) {
      if (body.can_run_on(*lanes_[i]->device)) lanes.push_back(i);
    }
  }
  if (lanes.empty()) {
    std::string names;
    for (std::size_t i = 1; i < lanes_.size(); ++i) {
      names += (names.empty() ? "'" : ", '") + lanes_[i]->stats.name + "'";
    }
    throw error(error_category::invalid_argument,
                body.name() + " cannot run on any device the heft scheduler has (" +
                    (names.empty() ? std::string("none") : names) + ")");
  }
  node.kernel = kernel_key(body.name(), body.work_items());
  std::vector<Candidate> candidates(lanes.size());
  std::vector<std::size_t> bytes(lanes.size());
  std::vector<std::vector<std::pair<std::string, std::size_t>>> inbound(lanes.size());
  Choice choice;
  for (;;) {
    at = now();
    for (std::size_t c = 0; c < lanes.size(); ++c) {
      Device* device = lanes_[lanes[c]]->device;
      const std::string& key = lanes_[lanes[c]]->key;
      auto dependencies = body.preview_dependencies(device);
      dependencies.insert(dependencies.end(), node.task.dependencies.begin(),
                          node.task.dependencies.end());
      inbound[c].clear();
      bytes[c] = 0;
      candidates[c].transfer = 0.0;
      for (const InboundTransfer& transfer : body.transfers_in(device)) {
        inbound[c].emplace_back(source_key(transfer.from), transfer.bytes);
        bytes[c] += transfer.bytes;
        candidates[c].transfer +=
            static_cast<double>(transfer.bytes) / model_.bandwidth(inbound[c].back().first, key);
      }
      const Measurement measured = model_.execution(node.kernel, key);
      candidates[c].execution =
          measured.samples > 0 ? std::optional(measured.mean) : std::nullopt;
      candidates[c].provisional = measured.samples == 1;
      candidates[c].speed = prior_ ? lanes_[lanes[c]]->speed : 1.0;
      std::lock_guard lock(mutex_);
      const auto& explored = explored_[node.kernel];
      // Without the prior nothing is sent to measure: round-robin until measured.
      candidates[c].explored = !prior_ ? std::numeric_limits<unsigned>::max()
                               : lanes[c] < explored.size() ? explored[lanes[c]] : 0;
      candidates[c].ready = ready_time(dependencies, at);
      candidates[c].available =
          at + pool_for(*lanes_[lanes[c]], body).load.earliest();
    }
    std::unique_lock lock(mutex_);
    if (wait_for_measurements(lock, node.kernel, lanes, candidates)) continue;
    choice = choose_device(candidates, round_robin_[node.kernel]);
    node.lane = lanes[choice.index];
    node.on_caller = body.tasks_at_once(*lanes_[node.lane]->device) > 0;
    if (choice.explores) {
      auto& explored = explored_[node.kernel];
      explored.resize(std::max(explored.size(), node.lane + 1), 0);
      ++explored[node.lane];
      auto& measuring = measuring_[node.kernel];
      measuring.resize(std::max(measuring.size(), node.lane + 1), 0);
      ++measuring[node.lane];
      node.measures = true;
    }
    node.planned_bytes = bytes[choice.index];
    node.planned_from = std::move(inbound[choice.index]);
    node.estimate = choice.finish - choice.start;
    node.by_model = choice.by_model;
    finish_estimates_[node.task.event.get()] = choice.finish;
    break;
  }
  if (logger().should_log(spdlog::level::debug)) {
    std::string others;
    for (std::size_t c = 0; c < lanes.size(); ++c) {
      others += fmt::format("{}'{}' {:.3f} ms{}", c ? ", " : "", lanes_[lanes[c]]->key,
                            (estimated_finish(candidates[c]) - at) * 1e3,
                            candidates[c].execution ? "" : " (not measured)");
    }
    logger().debug(
        "heft: {} -> '{}' by {}: transfer {} B, start +{:.3f} ms, finish +{:.3f} ms "
        "(finish on each: {})",
        node.kernel, lanes_[node.lane]->key,
        choice.by_model ? "model" : choice.explores ? "exploring" : prior_ ? "prior" : "round-robin",
        node.planned_bytes, (choice.start - at) * 1e3, (choice.finish - at) * 1e3, others);
  }
}

bool HeftScheduler::wait_for_measurements(std::unique_lock<std::mutex>& lock,
                                          const std::string& kernel,
                                          const std::vector<std::size_t>& lanes,
                                          const std::vector<Candidate>& candidates) {
  // One candidate: nothing to choose, nothing to wait for.
  if (calibration_wait_.count() == 0 || candidates.size() < 2 || gave_up_[kernel]) return false;
  if (measurement_target(candidates)) return false;  // one to send to measure: no wait
  // Tasks measuring it on a lane without a settled measurement (none, or the first run's).
  const auto measuring = [&] {
    const auto& running = measuring_[kernel];
    for (std::size_t c = 0; c < lanes.size(); ++c)
      if (model_.execution(kernel, lanes_[lanes[c]]->key).samples < 2 && lanes[c] < running.size() &&
          running[lanes[c]] > 0)
        return true;
    return false;
  };
  if (!measuring()) return false;
  if (measured_cv_.wait_for(lock, calibration_wait_, [&] { return !measuring(); })) return true;
  gave_up_[kernel] = true;
  logger().debug("heft: {}: no measurement within {} ms; placed by the prior until measured",
                 kernel, calibration_wait_.count());
  return false;
}

void HeftScheduler::submit(Task task) {
  if (!task.event) {
    throw error(error_category::invalid_argument, "heft scheduler: a task without an event");
  }
  if (task.is_join()) {
    submit_join(std::move(task));
    return;
  }
  auto node = std::make_shared<Node>();
  node->task = std::move(task);
  bool on_submitter = false;  // run here: Task::submitter_waits, on the host, ready
  {
    std::lock_guard placing(placing_mutex_);
    if (node->task.body) {
      try {
        decide(*node);
        place_task(node->task, lanes_[node->lane]->device);
      } catch (...) {
        {
          std::lock_guard lock(mutex_);
          finish_estimates_.erase(node->task.event.get());
        }
        node->task.event->mark_failed(std::current_exception());
        return;
      }
    }
    on_submitter = node->task.submitter_waits && !lanes_[node->lane]->device &&
                   all_done(node->task.dependencies);
    std::lock_guard lock(mutex_);
    Lane& lane = *lanes_[node->lane];
    node->slot = pool_of(lane, *node).load.place(node->estimate);
    ++lane.stats.tasks;
    lane.stats.by_model += node->by_model;
    lane.stats.transfer_bytes += node->planned_bytes;
    ++outstanding_;
    if (on_submitter) ++pool_of(lane, *node).running;  // taken to run, as take_ready() does
  }
  if (on_submitter) {
    run_for_submitter(std::move(node));
    return;
  }
  when_done(node->task.dependencies, [this, node] { make_ready(node); });
}

void HeftScheduler::submit_join(Task task) {
  {
    std::lock_guard lock(mutex_);
    ++outstanding_;  // wait_all() and the destructor wait for it
  }
  auto join = std::make_shared<Task>(std::move(task));
  when_done(join->dependencies, [this, join] {
    run_task_now(*join);
    // Notified under the lock: once it is released, the scheduler may go.
    std::lock_guard lock(mutex_);
    if (--outstanding_ == 0) idle_cv_.notify_all();
  });
}

void HeftScheduler::make_ready(std::shared_ptr<Node> node) {
  {
    std::lock_guard lock(mutex_);
    node->sequence = sequence_++;
    lanes_[node->lane]->ready.push_back(std::move(node));
  }
  ready_cv_.notify_one();
}

std::shared_ptr<HeftScheduler::Node> HeftScheduler::take_ready() {
  Lane* best = nullptr;
  for (std::size_t i = 0; i < lanes_.size(); ++i) {
    Lane& lane = *lanes_[i];
    if (lane.ready.empty()) continue;
    if (i > 0) {
      const Pool& pool = pool_of(lane, *lane.ready.front());
      if (pool.running >= pool.capacity) continue;
    }
    if (!best || lane.ready.front()->sequence < best->ready.front()->sequence) best = &lane;
  }
  if (!best) return nullptr;
  auto node = std::move(best->ready.front());
  best->ready.pop_front();
  ++pool_of(*best, *node).running;
  return node;
}

void HeftScheduler::wait_all() {
  if (running_on == this) {
    throw error(error_category::invalid_argument,
                "heft scheduler: wait_all() from inside a task would wait for that task; wait "
                "on the events you need instead");
  }
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [this] { return outstanding_ == 0; });
}

void HeftScheduler::run(Node& node, DeviceQueue* queue, double& busy) {
  const double start = now();
  if (!queue || node.kernel.empty()) {
    run_task_now(node.task, queue);
  } else {
    TimedQueue timed(*queue, pool_of(*lanes_[node.lane], node).gate.get());
    run_task_now(node.task, &timed);
    if (timed.measured() && node.task.event->status() == TaskStatus::complete) {
      const std::string& key = lanes_[node.lane]->key;
      model_.record_execution(node.kernel, key, timed.kernel_seconds());
      model_.record_transfer(key, node.planned_bytes, timed.copy_seconds());
      record_transfers_from(node, key, timed.copy_seconds());
    }
  }
  busy = now() - start;
}

void HeftScheduler::work() {
  running_on = this;
  for (;;) {
    std::shared_ptr<Node> node;
    std::unique_ptr<DeviceQueue> queue;  // an idle queue of the node's device, for this task
    {
      std::unique_lock lock(mutex_);
      ready_cv_.wait(lock, [&] { return (node = take_ready()) || stopping_; });
      if (!node) return;  // stopping, nothing left
      std::vector<std::unique_ptr<DeviceQueue>>& idle = lanes_[node->lane]->idle_queues;
      if (!idle.empty()) {
        queue = std::move(idle.back());
        idle.pop_back();
      }
    }
    execute(std::move(node), std::move(queue));
  }
}

void HeftScheduler::execute(std::shared_ptr<Node> node, std::unique_ptr<DeviceQueue> queue) {
  const std::size_t lane_index = node->lane;
  Device* device = lanes_[lane_index]->device;
  const double estimate = node->estimate;
  const std::size_t slot = node->slot;
  const bool on_caller = node->on_caller;
  const TaskEvent* event = node->task.event.get();
  const bool measures = node->measures;
  const std::string kernel = measures ? node->kernel : std::string();
  double busy = 0.0;
  if (device && !queue) {
    try {
      queue = device->create_queue();
      std::lock_guard lock(mutex_);
      ++lanes_[lane_index]->stats.queues;
    } catch (...) {
      node->task.event->mark_failed(std::current_exception());
    }
  }
  if (!device || queue) run(*node, queue.get(), busy);
  node.reset();  // release the work's captures before waiters see it finished
  bool idle = false;
  {
    std::lock_guard lock(mutex_);
    Lane& lane = *lanes_[lane_index];
    if (queue) lane.idle_queues.push_back(std::move(queue));
    Pool& pool = on_caller ? lane.on_caller : lane.enqueued;
    --pool.running;
    pool.load.finish(slot, estimate);
    lane.stats.busy_seconds += busy;
    finish_estimates_.erase(event);
    if (measures) --measuring_[kernel][lane_index];
    idle = --outstanding_ == 0;
  }
  // No wake-up of other workers: the pool slot this task freed is taken by this worker
  // itself, which looks for ready work (take_ready) before it sleeps again. (Waking them
  // all at each task's end cost each of the ~20 idle workers of a GPU + CPU run a futex
  // wake-up and a turn on mutex_, beside the threads feeding the GPU.)
  if (measures) measured_cv_.notify_all();  // a submitter may wait for its measurement
  if (idle) idle_cv_.notify_all();
}

void HeftScheduler::run_for_submitter(std::shared_ptr<Node> node) {
  // As on a worker: wait_all() from inside the task is refused (it would wait for itself).
  struct RunningOn {
    const HeftScheduler* previous = running_on;
    ~RunningOn() { running_on = previous; }
  } restore;
  running_on = this;
  execute(std::move(node), nullptr);  // its dependencies are done
}

std::vector<DevicePlacements> HeftScheduler::placements() const {
  std::lock_guard lock(mutex_);
  std::vector<DevicePlacements> result;
  for (const auto& lane : lanes_) result.push_back(lane->stats);
  return result;
}

}  // namespace plexus::heft
