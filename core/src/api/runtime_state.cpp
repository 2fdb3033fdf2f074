#include "runtime_state.hpp"

#include "buffer_storage.hpp"
#include "bundle_state.hpp"
#include "memory_report.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "trace/trace_writer.hpp"

namespace plexus::detail {

RuntimeState::RuntimeState(Config loaded)
    : config(std::move(loaded)),
      registry(plugin_search_path(config)),
      programs(config.program_cache_max_bytes()) {
  for (const auto& warning : config.warnings()) logger().warn("{}", warning);
  for (const auto& warning : registry.warnings()) logger().warn("{}", warning);
  for (const auto& problem : registry.problems()) {
    logger().warn("unusable plugin skipped: {}", problem.message);
  }
  components = std::make_unique<ComponentSet>(config, registry);
  for (const auto& warning : components->warnings()) logger().warn("{}", warning);
  for (const auto& skipped : components->skipped()) logger().debug("{}", skipped);
  devices = available_devices(*components);
  location_device_.push_back(nullptr);  // host_location
  for (std::size_t i = 0; i < devices.size(); ++i) {
    device_index_[devices[i]] = i;
    if (devices[i]->shares_host_memory()) {
      device_location_.push_back(host_location);
    } else if (location_device_.size() < max_locations) {
      device_location_.push_back(static_cast<LocationId>(location_device_.size()));
      location_device_.push_back(devices[i]);
    } else {
      device_location_.push_back(max_locations);  // refused when used
    }
  }
  if (std::string file = config.trace_file(); !file.empty()) {
    tracer = std::make_unique<Tracer>(
        file, config.selected(ComponentKind::scheduler).value_or(std::string("none")));
    if (!activate_tracer(tracer.get())) {
      logger().warn("trace file '{}' is not written: another plexus::Runtime of this process "
                    "is tracing (one traced runtime at a time)", file);
      tracer.reset();
    }
  }
}

RuntimeState::~RuntimeState() {
  if (tracer && !deactivate_tracer(tracer.get())) (void)tracer.release();  // still held: left
}

namespace {

[[noreturn]] void used_after_runtime(const char* what) {
  throw error(error_category::invalid_argument,
              std::string(what) + " was used after its plexus::Runtime was destroyed; keep the "
                                  "Runtime alive while its queues, buffers, bundles and events "
                                  "are in use");
}

}  // namespace

std::shared_ptr<RuntimeState> RuntimeState::lock(const std::weak_ptr<RuntimeState>& runtime,
                                                 const char* what) {
  auto state = runtime.lock();
  if (!state) used_after_runtime(what);
  return state;
}

void RuntimeState::check(const std::weak_ptr<RuntimeState>& runtime, const char* what) {
  if (runtime.expired()) used_after_runtime(what);
}

Scheduler& RuntimeState::scheduler() const {
  if (Scheduler* scheduler = components->scheduler()) return *scheduler;
  throw error(error_category::config, config.origin().path +
                                          ": no scheduler is selected; set [scheduler] use = "
                                          "\"inorder\" (or another installed scheduler)");
}

MemoryModel& RuntimeState::memory() const {
  if (MemoryModel* memory = components->memory()) {
    for (LocationId l = 1; l < location_device_.size(); ++l) {
      const std::uint64_t bit = std::uint64_t{1} << l;
      if (lost_locations_.load(std::memory_order_relaxed) & bit) continue;
      std::string why = location_device_[l]->lost();
      if (why.empty() || (lost_locations_.fetch_or(bit) & bit)) continue;
      logger().error("{} is lost ({}): the data only it held is lost", location_device_[l]->info().name, why);
      memory->lose_location(l, why);
    }
    return *memory;
  }
  throw error(error_category::config, config.origin().path +
                                          ": buffers need a memory model and none is selected; "
                                          "set [memory] use = \"whole\" (or paged, exact)");
}

LocationId RuntimeState::location_of(const Device* device) const {
  if (!device) return host_location;
  auto found = device_index_.find(device);
  if (found == device_index_.end()) {
    throw error(error_category::invalid_argument,
                "device '" + device->info().name + "' does not belong to this runtime");
  }
  LocationId location = device_location_[found->second];
  if (location >= max_locations) {
    throw error(error_category::invalid_argument,
                "device '" + device->info().name + "' cannot hold buffers: only " +
                    std::to_string(max_locations - 1) +
                    " devices with their own memory are supported per runtime");
  }
  return location;
}

Device* RuntimeState::device_at(LocationId location) const {
  if (location >= location_device_.size()) {
    throw error(error_category::internal, "no device at location " + std::to_string(location));
  }
  return location_device_[location];
}

void RuntimeState::attach(const std::shared_ptr<BufferStorage>& buffer) {
  std::lock_guard lock(buffers_mutex_);
  buffers_[buffer.get()] = buffer;
}

void RuntimeState::attach(const std::shared_ptr<BundleState>& bundle) {
  std::lock_guard lock(buffers_mutex_);
  std::erase_if(bundles_, [](const auto& weak) { return weak.expired(); });
  bundles_.push_back(bundle);
}

void RuntimeState::attach_view(const std::shared_ptr<TaskEvent>& view) {
  std::lock_guard lock(buffers_mutex_);
  std::erase_if(views_, [](const auto& weak) {
    auto event = weak.lock();
    return !event || event->is_done();
  });
  views_.push_back(view);
}

bool RuntimeState::detach(const BufferStorage* buffer) {
  std::lock_guard lock(buffers_mutex_);
  return buffers_.erase(buffer) > 0;
}

bool RuntimeState::shutdown() noexcept {
  try {  // kernels still held for fusion run unfused before the runtime goes
    cancel_conflicting(*this, nullptr, {}, {}, "the runtime shutting down", true);
  } catch (...) {
  }
  std::vector<std::weak_ptr<TaskEvent>> views;
  {
    std::lock_guard lock(buffers_mutex_);
    views.swap(views_);
  }
  for (auto& weak : views) {
    auto view = weak.lock();
    if (view && !view->is_done()) {
      logger().warn("a host view outlives its plexus::Runtime; released so that the runtime "
                    "can finish (destroy views before their runtime)");
      try {
        view->mark_complete();
      } catch (const error&) {
        // Its view released it meanwhile.
      }
    }
  }
  if (!wait_for_tasks()) return false;  // tasks still run: nothing may be released
  std::unordered_map<const BufferStorage*, std::weak_ptr<BufferStorage>> live;
  std::vector<std::weak_ptr<BundleState>> bundles;
  {
    std::lock_guard lock(buffers_mutex_);
    live.swap(buffers_);
    bundles.swap(bundles_);
  }
  for (auto& weak : bundles) {
    if (auto bundle = weak.lock()) bundle->drop_modules();
  }
  for (auto& [raw, weak] : live) {
    if (auto buffer = weak.lock()) buffer->release(*this);
  }
  staging.clear();
  device_graphs.clear();
  if (const std::size_t left = usm.release_all())
    logger().debug("runtime shutdown: freed {} USM allocation(s) the application did not free",
                   left);
  // The trace last: the buffers released above (those the program still held) are freed
  // while the tracer records, so their `free` is in it.
  if (tracer && !deactivate_tracer(tracer.get())) {
    // A task of another runtime, recorded in this trace, still runs: its record must not be
    // read nor freed under it.
    logger().error("trace file '{}' is not written: a task of another plexus::Runtime that it "
                   "records still ran {} s after this runtime's shutdown began",
                   tracer->file(), tracer_release_limit.count());
    (void)tracer.release();  // left allocated for that task's hooks
  } else if (tracer) {
    try {
      write_trace(*tracer);
      logger().info("plexus trace written: {} and {}", tracer->file(), summary_path(tracer->file()));
    } catch (const std::exception& failure) {
      logger().error("{}", failure.what());
    }
  } else if (const TracerHold active; active.get()) {
    // Another runtime traces, and recorded this one's tasks too: their device times are read
    // now, while this runtime's devices (and backends) are still there.
    try {
      active.get()->settle_timings(devices);
    } catch (const std::exception& failure) {
      logger().warn("runtime shutdown: the trace lacks this runtime's device times: {}", failure.what());
    }
  }
  if (components->memory())
    logger().debug("plexus memory report: {}", describe(memory_stats(), *this));
  try {
    report_unobserved(true);
  } catch (const std::exception& failure) {
    logger().error("runtime shutdown: the async_handler threw: {}", failure.what());
  } catch (...) {
    logger().error("runtime shutdown: the async_handler threw");
  }
  return true;
}

MemoryStats RuntimeState::memory_stats() const {
  MemoryStats stats;
  if (MemoryModel* memory = components->memory()) stats = memory->stats();
  stats.device_copies = device_copies.snapshot();
  stats.usm = usm.stats();
  return stats;
}

}  // namespace plexus::detail
