// RuntimeState: what a Runtime owns, shared with the API's handles (which hold it weakly).
// Internal to the core.
//
// Locations: devices that share host memory are host_location (0); every other available
// device gets 1, 2, ... in devices() order; one numbered max_locations or beyond is refused
// when used. Live buffers register here so that shutdown() can free their device
// allocations before the backends go.
// Thread-safety: every member is safe from any thread; the components and the location
// tables are immutable after construction.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "plexus/component_set.hpp"
#include "plexus/config.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/runtime_options.hpp"
#include "plexus/scheduler.hpp"
#include "device_graph_cache.hpp"
#include "failure_sink.hpp"
#include "fusion_session.hpp"
#include "pending_events.hpp"
#include "program_cache.hpp"
#include "staged_copy.hpp"
#include "staging_pool.hpp"
#include "trace/tracer.hpp"
#include "usm_registry.hpp"

namespace plexus::detail {

class BufferStorage;
class BundleState;

class RuntimeState {
 public:
  explicit RuntimeState(Config loaded);
  ~RuntimeState();

  // The state behind `runtime`, or plexus::error(invalid_argument) saying that `what` was
  // used after its runtime was destroyed.
  static std::shared_ptr<RuntimeState> lock(const std::weak_ptr<RuntimeState>& runtime,
                                            const char* what);
  // The same check without taking a reference (no atomic read-modify-write): for uses that
  // only need the runtime to exist now.
  static void check(const std::weak_ptr<RuntimeState>& runtime, const char* what);

  Config config;
  PluginRegistry registry;
  std::unique_ptr<ComponentSet> components;
  std::vector<Device*> devices;  // available, in config order
  ProgramCache programs;
  FusionRegistry fusions;  // queues in fusion mode (early cancellation)
  std::unique_ptr<Tracer> tracer;  // [trace] file / PLEXUS_TRACE; written by shutdown()
  DeviceCopyCounters device_copies;  // how CopyRunner ran device -> device copies
  StagingPool staging;  // host memory of staged copies; emptied by shutdown() (and first
                        // destroyed: declared after the components owning the devices)
  DeviceGraphCache device_graphs;  // replayed command graphs; emptied by shutdown()
  UsmRegistry usm;  // USM allocations (plexus/usm.hpp); what is left is freed by shutdown()

  // The configured components, or plexus::error(config) saying how to select one. memory()
  // first tells the memory model of the devices newly lost (Device::lost()), so that no
  // access is planned from a dead device's data.
  Scheduler& scheduler() const;
  MemoryModel& memory() const;
  // The memory model's counters (none without one) with device_copies filled in.
  MemoryStats memory_stats() const;

  bool has_device(const Device* device) const { return device_index_.count(device) > 0; }
  // nullptr (the host) and host-sharing devices: host_location.
  LocationId location_of(const Device* device) const;
  // The device with its own memory at `location`; nullptr for host_location.
  Device* device_at(LocationId location) const;

  void attach(const std::shared_ptr<BufferStorage>& buffer);
  // A bundle whose modules shutdown() drops.
  void attach(const std::shared_ptr<BundleState>& bundle);
  // An open host view: shutdown() releases it (with a warning) if it is still held, so
  // that work waiting for it lets the runtime go instead of hanging.
  void attach_view(const std::shared_ptr<TaskEvent>& view);
  // Whether the buffer was still attached (the caller then releases it).
  bool detach(const BufferStorage* buffer);

  RuntimeOptions options;  // set by Runtime before the first task
  const AutoGraphOptions auto_graph = config.auto_graph();  // [graphs]
  const std::shared_ptr<FailureSink> failures = std::make_shared<FailureSink>();
  // Every event the API makes for this runtime: its failure goes to `failures`; with a
  // shutdown timeout, shutdown() can also name it while it still runs.
  void track(const std::shared_ptr<TaskEvent>& event);
  // Hands the failures nobody observed to options.async_handler (which may throw); without
  // a handler, logs them at error level when `log_without_handler`, else keeps them.
  void report_unobserved(bool log_without_handler);

  // Waits for every task (up to options.shutdown_timeout, see runtime_options.hpp), writes
  // the trace (when tracing), releases the allocations of buffers still alive, logs the
  // memory report, reports the failures nobody observed. Called once, by ~Runtime. False
  // when tasks still ran at the deadline: nothing was released, and the caller must keep
  // this state (the components the tasks use) alive.
  bool shutdown() noexcept;

 private:
  std::unordered_map<const Device*, std::size_t> device_index_;  // position in `devices`
  std::vector<LocationId> device_location_;                      // by index; max: refused
  std::vector<Device*> location_device_;                         // by location

  std::mutex buffers_mutex_;
  std::unordered_map<const BufferStorage*, std::weak_ptr<BufferStorage>> buffers_;
  std::vector<std::weak_ptr<BundleState>> bundles_;
  std::vector<std::weak_ptr<TaskEvent>> views_;

  // Waits for every task, up to options.shutdown_timeout; false when some still run.
  bool wait_for_tasks() noexcept;
  std::mutex tracked_mutex_;
  PendingEvents tracked_;  // under tracked_mutex_; only with a shutdown timeout
  // Locations whose device the memory model was told is lost (lose_location).
  mutable std::atomic<std::uint64_t> lost_locations_{0};
};

}  // namespace plexus::detail
