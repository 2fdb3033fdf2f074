// Runtime: the application's entry point. Loads the config (Config::load's layers unless
// one is given), discovers plugins, creates the selected components and exposes
// the devices of every available backend.
//
// Application API (queue.hpp, buffer.hpp, kernel_bundle.hpp; plexus/plexus.hpp has all):
//   plexus::Runtime rt;                      // or Runtime(Config)
//   plexus::Queue q = rt.queue();            // first device; rt.queue(device, order)
//   plexus::Queue g = rt.queue(plexus::DeviceType::gpu);   // or rt.queue(1): by index
//   plexus::KernelBundle b = rt.build(source, "-DN=4");   // program cache: one build per key
//   plexus::MemoryStats s = rt.memory_report();            // copies/bytes per direction, ...
//
// Thread-safety: every member may be called from any thread. Ownership: the runtime owns
// its components; devices it hands out are valid while it lives; queues, buffers, bundles
// and events refer to it weakly and throw plexus::error(invalid_argument) once it is gone.
// Destruction waits for outstanding tasks (up to RuntimeOptions::shutdown_timeout, when
// set), frees the device allocations of buffers still alive, logs the memory report at
// debug level, and reports failures nobody observed (the async handler, else the log at
// error level; runtime_options.hpp).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "plexus/build_cache.hpp"
#include "plexus/build_properties.hpp"
#include "plexus/component_set.hpp"
#include "plexus/config.hpp"
#include "plexus/device.hpp"
#include "plexus/export.hpp"
#include "plexus/kernel_bundle.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/queue.hpp"
#include "plexus/runtime_options.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

namespace detail {
class BundleState;
class RuntimeState;
}

// Counters of the runtime's in-memory program cache (see Runtime::build). Each level is
// bounded on its own by `[program_cache] max_bytes` (0, the default: unbounded): `bytes`
// stays at or under it, the least recently used entries going first (`evictions`); an
// evicted key is a miss and a build again. What an entry's bytes count: programs the
// binary, modules the binary they were loaded from, fused the fused binary (and IR), bundles
// the images they hold; each plus its kernels' metadata.
struct ProgramCacheStats {
  BuildCacheStats programs;  // compiled binaries (and the IR fusion takes for PTX), keyed by
                             // source, options, format, arch
  BuildCacheStats modules;   // binaries loaded on a device
  BuildCacheStats fused;     // fused kernels (Queue::complete_fusion), keyed by the request
  BuildCacheStats bundles;   // Runtime::build results, keyed by the source and options given
};

class PLEXUS_API Runtime {
 public:
  Runtime();
  explicit Runtime(Config config);
  Runtime(Config config, RuntimeOptions options);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const Config& config() const;
  const PluginRegistry& plugins() const;
  const ComponentSet& components() const;
  std::vector<Device*> devices() const;  // of every available backend, in config order

  // Runs `work` on a host thread once `dependencies` are done, through the scheduler.
  std::shared_ptr<TaskEvent> host_task(std::function<void()> work,
                                       std::vector<std::shared_ptr<TaskEvent>> dependencies = {});
  // Every task submitted so far is done; then, with an async handler, hands it the failures
  // nobody observed. A thread that holds a host view which a task waits for: that task fails
  // (plexus::error(invalid_argument): the wait could never end) instead of hanging.
  void wait();
  // Hands the failures nobody observed so far to the async handler (none: nothing happens).
  void throw_asynchronous();

  // A queue on the first device (in order), or on `device` (one of devices()).
  Queue queue();
  Queue queue(Device& device, QueueOrder order = QueueOrder::in_order);
  // A queue on the first device of `type` (gpu, cpu, accelerator), in devices() order, or
  // on devices()[index]. No such device: plexus::error(unsupported) for a type,
  // invalid_argument for an index, each listing the devices there are (name and type).
  Queue queue(DeviceType type, QueueOrder order = QueueOrder::in_order);
  Queue queue(std::size_t index, QueueOrder order = QueueOrder::in_order);

  // Builds OpenCL C `source` with `options` (space-separated, e.g. "-DN=4 -cl-std=CL2.0")
  // for every device whose formats the compiler produces (the first such format of each),
  // through the in-memory program cache (one build per key across threads; waiters share
  // the result or the error), then the compiler's cache store. A source that does not
  // compile: plexus::error(build) with the compiler's log. No device can take it:
  // plexus::error(unsupported) naming each device and why.
  KernelBundle build(const std::string& source, const std::string& options = "");
  // The same for `source` in properties.language (OpenCL C, C++ for OpenCL or SYCL
  // free-function kernels) with its build options, virtual include files and registered
  // names (build_properties.hpp). Every cache level keys on all of them. A source language
  // that is not a source (bitcode, SPIR-V) or registered names for a language other than
  // SYCL: plexus::error(invalid_argument).
  KernelBundle build(const std::string& source, const BuildProperties& properties);
  // Loads prebuilt device code (plexus/bundle_image.hpp; plexus::syclbin::load_bundle picks
  // the images of a SYCLBIN file), each image on its device, through the program cache (key:
  // hashes of the bytes, their format, the load format, architecture; then the device). An
  // image whose format is not its load_format, or that lists no kernels, is compiled to the
  // load format first (SPIR-V or LLVM bitcode; cached the same way). The bundle has the
  // kernels of every image; images() gives them back. Errors: a device not of this runtime
  // or a load format it does not take: invalid_argument; a translation that fails: build,
  // with the compiler's log; every message names the device and the image's origin.
  KernelBundle load(std::vector<BundleImage> images);
  ProgramCacheStats program_cache_stats() const;

  // The memory model's counters since the runtime started (per-direction copies and bytes,
  // dependencies, allocations), the runtime's device -> device copies and its USM
  // allocations (MemoryStats::usm: made, and live now). Locations: 0 is the host (and devices sharing its memory),
  // devices with their own memory are numbered 1.. in devices() order.
  MemoryStats memory_report() const;
  // Human-readable form of memory_report() (what the destructor logs).
  std::string memory_report_text() const;
  // The location number of `device` (0 for devices that share host memory).
  LocationId location_of(const Device& device) const;

  // For the API's handles: the state they refer to weakly.
  const std::shared_ptr<detail::RuntimeState>& state() const { return state_; }

 private:
  // build() on a miss of the runtime's bundle cache: compiles and loads for every device.
  std::shared_ptr<const detail::BundleState> build_bundle(
      const std::string& source, const std::string& options,
      const std::shared_ptr<const BuildProperties>& properties);

  std::shared_ptr<detail::RuntimeState> state_;
};

}  // namespace plexus
