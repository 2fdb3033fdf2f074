// ZeQueue: a DeviceQueue over one immediate command list (zeCommandListCreateImmediate,
// asynchronous mode) of the device's compute queue group.
//
// Order: Level Zero 1.4 command lists have no in-order flag, so every operation appended
// here signals an event of its own (ZeEventPool) and waits for the previous operation's:
// the list runs in enqueue order, and the last event stands for "everything so far".
// Events go back to the pool once their operation is known done (wait(), a completion).
// Copies: zeCommandListAppendMemoryCopy, zeCommandListAppendMemoryCopyRegion for 2D/3D
// layouts (one 2D region per slice when slice_pitch is not a multiple of row_pitch, or a
// pitch does not fit 32 bits); host memory must stay valid until wait()/on_complete().
// Launches: prepare_launch (ze_launch.hpp), then zeCommandListAppendLaunchKernel under the
// kernel's lock. USM: zeCommandListAppendMemoryCopy; fills with
// zeCommandListAppendMemoryFill for power-of-two patterns up to the queue group's
// maxMemoryFillPatternSize (false otherwise: the caller copies a filled block).
// Failures: a driver error while appending throws at once (invalid_argument for a refused
// launch, device otherwise); an operation that fails on the device makes its event's
// synchronization fail (ZE_RESULT_ERROR_DEVICE_LOST): the failure is kept, later
// operations are not appended, and wait() or an on_complete callback reports it
// (plexus::error(device)), after which the queue runs operations again.
// Completion: wait() is zeEventHostSynchronize on the last event; on_complete hands the
// callback and that event to the queue's completion thread (plexus::CompletionThread), which
// waits for the event (zeEventHostSynchronize), marks the operations up to it done and calls
// the callback with the failure kept, if any.
// Markers: mark() is the last event (no driver call); wait_for appends a barrier that waits
// for it and the previous operation (markers of other devices: false).
// Timing: events from the timestamp pool while on (ZeTiming).
// Device graphs: ZeGraph, a regular command list replayed on a command queue
// (zeCommandQueueExecuteCommandLists with a fence), ordered with this list by events.
// Native tasks: "level_zero": the context, this immediate command list and the device;
// enqueue_native brackets the work with barriers, so what it appends runs after the
// queue's earlier operations and before its later ones.
//
// Ownership: created by ZeDevice::create_queue(), must not outlive the device; the
// destructor waits for the operations and the callbacks. Thread-safety: one thread at a
// time, except mark_from_any_thread().
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "plexus/completion_thread.hpp"
#include "plexus/addressed_device_queue.hpp"
#include "ze_events.hpp"
#include "ze_timing.hpp"

namespace plexus::level_zero {

class ZeDevice;

// A command queue for regular command lists (graphs), shared by the ZeQueue that made it and
// its graphs' parts: a fence must go before its command queue, and a graph may outlive
// the ZeQueue. Destroyed (zeCommandQueueDestroy) with its last holder.
struct ZeCommandQueue {
  const ZeLoader& loader;
  ze_command_queue_handle_t handle = nullptr;
  ~ZeCommandQueue() {
    if (handle) loader.command_queue_destroy(handle);
  }
};

class ZeQueue final : public AddressedDeviceQueue {
 public:
  // Throws plexus::error(device) when the command list cannot be created.
  explicit ZeQueue(ZeDevice& device);
  ~ZeQueue() override;

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  // From this device or another Level Zero device of the same driver that this one reads
  // directly (ZeDevice::can_access: zeDeviceCanAccessPeer); false otherwise (the runtime
  // stages through host memory). In ze_queue_copies.cpp, with the USM operations.
  bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                        const CopyLayout& layout) override;
  void usm_copy(void* destination, const void* source, std::size_t bytes) override;
  bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                std::size_t bytes) override;
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  // Device graphs (ze_graph.hpp); PLEXUS_LEVEL_ZERO_GRAPHS=0 records none.
  std::unique_ptr<DeviceGraph> record_graph(std::span<const GraphLaunch> launches) override;
  void launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) override;
  NativeHandles native_handles() override;
  void enqueue_native(const std::function<void(const NativeHandles&)>& work) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;
  bool orders_by_markers() const override { return true; }
  std::shared_ptr<const QueueMarker> mark() override;
  std::shared_ptr<const QueueMarker> mark_from_any_thread() override;
  bool wait_for(const QueueMarker& marker) override;
  bool enable_timing() override;
  std::shared_ptr<const OperationTiming> take_timing() override;

  // One operation about to be appended: the event it signals and the events it waits for
  // (the previous operation's, and `extra`).
  struct Step {
    std::shared_ptr<ZeEvent> signal;
    std::array<ze_event_handle_t, 2> waits{};
    std::uint32_t wait_count = 0;
  };
  // nullopt-like: a Step with no signal event when a kept failure skips the operation.
  Step begin(ze_event_handle_t extra = nullptr);
  // After the driver call that appended `step`'s operation: throws for a failed `result`
  // (invalid_argument when `refused`, else device) naming `what`, else makes the operation
  // the queue's last; `keep` stays alive until it is done.
  void commit(Step& step, ze_result_t result, const char* call, const std::string& what,
              std::shared_ptr<const void> keep = {}, bool refused = false);

  ZeDevice& device() const { return device_; }
  ze_command_list_handle_t list() const { return list_; }
  // The command queue graphs are executed on, created on first use.
  std::shared_ptr<ZeCommandQueue> graph_queue();

 private:
  struct InFlight {
    std::uint64_t sequence = 0;
    std::shared_ptr<ZeEvent> event;
    std::shared_ptr<const void> keep;
  };
  // Marks the operations up to `sequence` done; keeps the failure of a failed `result`.
  void settle(std::uint64_t sequence, ze_result_t result);
  std::exception_ptr take_failure();
  bool failed() const;
  void copy(void* destination, const void* source, const CopyLayout& layout, const char* what);

  ZeDevice& device_;
  ze_command_list_handle_t list_ = nullptr;
  std::shared_ptr<ZeCommandQueue> graph_queue_;
  mutable std::mutex mutex_;
  std::deque<InFlight> in_flight_;    // guarded by mutex_
  std::shared_ptr<ZeEvent> last_;     // guarded by mutex_
  std::uint64_t sequence_ = 0;        // guarded by mutex_: the last operation's number
  std::exception_ptr failure_;        // guarded by mutex_
  std::unique_ptr<ZeTiming> timing_;  // nullptr: timing off
  std::unique_ptr<CompletionThread> completions_;
};

}  // namespace plexus::level_zero
