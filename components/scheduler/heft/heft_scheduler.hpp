// HeftScheduler: the `scheduler/heft` component. Places every device task on the device
// expected to finish it first (HEFT, as StarPU's dmda): for each device that can run it,
//   start  = max(when the device can start another kernel (its first slot to free, given
//                the work already placed on it),
//                the estimated finish of the task's dependencies — explicit ones and those
//                the memory model finds for that placement, TaskBody::preview_dependencies)
//   finish = start + TaskBody::transfer_bytes(device) / bandwidth into the device
//                  + the kernel's measured execution time on the device
// Execution times are measured as tasks run (the kernel phase of each run, see TimedQueue)
// per (kernel name + global-size bucket, device); bandwidth from the copies before each
// launch. Until every capable device has a measurement for a kernel key, one task of that
// kernel goes to each unmeasured device (to measure it) and the others to the device with
// the most compute units (round-robin among equals), see device_choice.hpp; with
// prior = "none", round-robin over every capable device.
//
// Placement happens at submission, in submission order (TaskBody::place must be called in
// that order, and dependencies are known only once earlier tasks are placed): decisions use
// the estimates available then. An application that submits a whole graph at once is
// therefore placed by the prior on its first run; measurements from a history file, or from
// earlier work in the same process, make later runs model-driven.
//
// A device runs tasks_per_device kernels at once (k slots): the model keeps the work placed
// on each slot and a task goes to the slot that frees first (LaneLoad, lane_load.hpp).
//
// Running: a pool of worker threads; each device runs at most its tasks_per_device kernels
// at once ("auto": 4 on a GPU or accelerator, 1 on a CPU; tasks_per_device.hpp), host
// tasks and host accesses have no such limit. With overlap_transfers, one more task per
// device copies its data in while the device's kernels run (it waits for a slot of the
// device's ComputeGate only to launch). Each worker has its own queue per device.
//
// Options ([scheduler.heft], docs/configuration.md):
//   workers (integer, default: max(hardware threads, 1 + the sum over devices of
//   (tasks_per_device + 1))), tasks_per_device ("auto", or an integer >= 1 for every device),
//   overlap_transfers (true),
//   respect_queue_device (false: heft decides; true: a queue's device is kept),
//   bandwidth_gbps (8.0: bytes per ns into a device until measured),
//   prior ("compute_units": before measurements, prefer the device with the most compute
//   units after one measuring task per device; "none": round-robin),
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
#include "plexus/placement_stats.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"

namespace plexus::heft {

class HeftScheduler final : public Scheduler, public PlacementStats {
 public:
  explicit HeftScheduler(PluginContext& context);
  ~HeftScheduler() override;

  void submit(Task task) override;
  void wait_all() override;
  std::vector<DevicePlacements> placements() const override;

 private:
  struct Node;
  struct Lane;  // lane 0: the host; lanes 1..: the devices, in device order

  double now() const;
  void decide(Node& node);  // under placing_mutex_
  std::size_t lane_of(const Device* device) const;
  double ready_time(const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                    double now) const;  // under mutex_
  void make_ready(std::shared_ptr<Node> node);
  std::shared_ptr<Node> take_ready();  // under mutex_; nullptr: none can run now
  void run(Node& node, DeviceQueue* queue, double& busy);
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
  std::unordered_map<std::string, std::vector<bool>> explored_;    // by kernel key, by lane
  std::uint64_t sequence_ = 0;                                     // ready order
  std::uint64_t outstanding_ = 0;                                  // submitted and not yet finished
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace plexus::heft
