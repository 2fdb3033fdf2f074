// HeftScheduler: the `scheduler/heft` component. Places every device task on the device
// expected to finish it first (HEFT, as StarPU's dmda): for each device that can run it,
//   start  = max(when the device can start another kernel (its first slot to free, given
//                the work already placed on it),
//                the estimated finish of the task's dependencies — explicit ones and those
//                the memory model finds for that placement, TaskBody::preview_dependencies)
//   finish = start + the sum over the places the task's data comes from (host memory or
//                    another device, TaskBody::transfers_in) of bytes / the measured
//                    bandwidth of that pair (else into the device, else bandwidth_gbps)
//                  + the kernel's measured execution time on the device
// Execution times are measured as tasks run (the kernel phase of each run, see TimedQueue)
// per (kernel name + global-size bucket, device); bandwidth from the copies before each
// launch, per pair of locations (the copy phase shared among a task's sources by their
// estimated parts). Until every capable device has a measurement for a kernel key, one task of that
// kernel goes to each unmeasured device (to measure it) and the others to the device with
// the most compute units (round-robin among equals), see device_choice.hpp; with
// prior = "none", round-robin over every capable device.
//
// Placement happens at submission, in submission order (TaskBody::place must be called in
// that order, and dependencies are known only once earlier tasks are placed): decisions use
// the estimates available then. So that a whole graph submitted at once is not placed before
// anything is measured, a measuring phase: once every capable device has been sent a task of
// a kernel to measure and some of those are still running, submit() waits (the submitting
// thread; up to calibration_wait_ms) for their measurements, then places the task by the
// model. Exploration thus happens early, on the first tasks of each kernel, and the rest of
// the run uses what it measured. A wait that times out (a measuring task waits for something
// the submitter holds, or is slow) is not repeated for that kernel: later tasks go by the
// prior until it is measured. A history file (or earlier work in the same process) makes a
// run start calibrated: no exploring, no waiting.
//
// A device runs tasks_per_device kernels at once (k slots): the model keeps the work placed
// on each slot and a task goes to the slot that frees first (LaneLoad, lane_load.hpp).
// Native tasks whose work runs on the scheduler's thread (the host backend's, e.g. one
// single-threaded BLAS call each) have their own slots on such a device, one per compute
// unit (TaskBody::tasks_at_once), as StarPU runs one sequential codelet per CPU worker.
//
// Running: a pool of worker threads; each device runs at most its tasks_per_device kernels
// at once ("auto": 4 on a GPU or accelerator, 1 on a CPU; tasks_per_device.hpp), host
// tasks and host accesses have no such limit. A host task whose submitter waits for it at
// once (Task::submitter_waits: a host access) and whose dependencies are done at submission
// runs on the submitting thread inside submit(), not on a worker (a wake-up for the worker,
// then one for the submitter, which sits idle meanwhile); otherwise as any host task. With
// overlap_transfers, one more task per device copies its data in while the device's kernels
// run (it waits for a slot of the device's ComputeGate only to launch). A device's queues
// belong to its lane, not to the workers: a worker takes an idle queue of the device for one
// task and gives it back after, so
// a device has at most as many queues (CUDA streams, with their threads and the per-stream
// handles of the libraries that native tasks call) as tasks run on it at once, however many
// workers there are. (One queue per worker per device made 13-25 CUDA streams for four
// kernel slots, each stream's first tasks paying for new cuBLAS/cuSOLVER handles.)
//
// Options ([scheduler.heft], docs/configuration.md):
//   workers (integer, default: max(hardware threads, 1 + the sum over devices of
//   (tasks_per_device + 1))), tasks_per_device ("auto", or an integer >= 1 for every device),
//   overlap_transfers (true),
//   respect_queue_device (false: heft decides; true: a queue's device is kept),
//   bandwidth_gbps (8.0: bytes per ns into a device until measured),
//   prior ("compute_units": before measurements, prefer the device with the most compute
//   units after one measuring task per device; "none": round-robin),
//   calibration_wait_ms (1000; 0: never wait, place by the prior until measured),
//   history (path, or PLEXUS_HEFT_HISTORY; default none): measurements loaded at start
//   (a missing file is a first run; a corrupt one is plexus::error(config) naming it) and
//   written at shutdown (atomically; a failure is logged as an error with the path).
// Decisions are logged at debug, the counters per device at info at shutdown;
// PlacementStats gives them at any time.
// Thread-safety: submit() and wait_all() from any thread; wait_all() from inside a task is
// refused. The destructor waits for every task, stops the workers and saves the history.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cost_model.hpp"
#include "device_choice.hpp"
#include "plexus/placement_stats.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"

namespace plexus::heft {

// The ranges of `[scheduler.heft] workers`, `bandwidth_gbps` and `calibration_wait_ms`
// (docs/configuration.md); a wait past the clock's range would overflow its deadline.
constexpr std::int64_t max_workers = 1024;
constexpr std::int64_t max_calibration_wait_ms = 3'600'000;
constexpr double min_bandwidth_gbps = 1e-3;
constexpr double max_bandwidth_gbps = 1e6;

class HeftScheduler final : public Scheduler, public PlacementStats {
 public:
  explicit HeftScheduler(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~HeftScheduler() override;

  void submit(Task task) override;
  void wait_all() override;
  std::vector<DevicePlacements> placements() const override;

 private:
  struct Settings;  // the [scheduler.heft] options, read once (read_settings)
  static Settings read_settings(const ComponentOptions& options);
  HeftScheduler(PluginContext& context, const Settings& settings);
  struct Node;
  struct Lane;  // lane 0: the host; lanes 1..: the devices, in device order
  struct Pool;  // a lane's tasks of one kind: enqueued on its queues, or on the caller

  double now() const;
  void decide(Node& node);  // under placing_mutex_
  // Under mutex_ (`lock`): waits while `kernel` is measured on some of `lanes` only and tasks
  // sent there to measure it still run (the measuring phase, see above); true when it waited
  // for them (estimates to make again), false when there was nothing to wait for or the wait
  // timed out.
  bool wait_for_measurements(std::unique_lock<std::mutex>& lock, const std::string& kernel,
                             const std::vector<std::size_t>& lanes,
                             const std::vector<Candidate>& candidates);
  std::size_t lane_of(const Device* device) const;
  // The pool `node` runs in on `lane`; the pool a task of `body` would run in there.
  static Pool& pool_of(Lane& lane, const Node& node);
  static const Pool& pool_for(const Lane& lane, const TaskBody& body);
  // The cost model's key of where a transfer comes from: "host" or the device's lane key.
  std::string source_key(const Device* from) const;
  // Adds the measured copy phase of a task (`seconds`) to the bandwidth of each pair it
  // copied over (its planned sources into `key`), shared by their estimated parts.
  void record_transfers_from(const Node& node, const std::string& key, double seconds);
  double ready_time(const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                    double now) const;  // under mutex_
  void make_ready(std::shared_ptr<Node> node);
  // A join (task.hpp: no work): completed on the thread that completes its last dependency,
  // or on this one when they are all done; never given to a worker (a wake-up to do nothing,
  // and a slot of lane 0's load).
  void submit_join(Task task);
  std::shared_ptr<Node> take_ready();  // under mutex_; nullptr: none can run now
  void run(Node& node, DeviceQueue* queue, double& busy);
  // Runs a node taken to run (its pool's `running` counted) on this thread, with `queue` (an
  // idle queue of its device; nullptr: one is made), then accounts for its end.
  void execute(std::shared_ptr<Node> node, std::unique_ptr<DeviceQueue> queue);
  // A host task whose submitter waits for it at once (Task::submitter_waits), its
  // dependencies done: executed on this (submitting) thread instead of by a worker.
  void run_for_submitter(std::shared_ptr<Node> node);
  void work();
  void save_history() noexcept;
  void log_summary() const;  // at info, at shutdown: tasks, model choices, bytes, busy time

  CostModel model_;
  std::string history_path_;
  bool respect_queue_device_ = false;
  bool prior_ = true;  // option prior = "compute_units"
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();

  std::mutex placing_mutex_;          // one decision + place() at a time: submission order
  mutable std::mutex mutex_;          // everything below
  std::condition_variable ready_cv_;  // workers: a task can run, or stopping
  std::condition_variable idle_cv_;   // wait_all: outstanding reached 0
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::unordered_map<const TaskEvent*, double> finish_estimates_;  // tasks not yet done
  std::unordered_map<std::string, std::size_t> round_robin_;       // by kernel key
  // Tasks sent to measure a kernel on a lane in this run: by kernel key, by lane.
  std::unordered_map<std::string, std::vector<unsigned>> explored_;
  // Tasks sent to a device to measure a kernel there and not finished: by kernel key, lane.
  std::unordered_map<std::string, std::vector<std::size_t>> measuring_;
  std::unordered_map<std::string, bool> gave_up_;  // kernel keys whose wait timed out
  std::condition_variable measured_cv_;            // a measuring task finished
  std::chrono::milliseconds calibration_wait_{1000};
  std::uint64_t sequence_ = 0;                                     // ready order
  std::uint64_t outstanding_ = 0;                                  // submitted and not yet finished
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace plexus::heft
