#include "cuda_launcher.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_environment.hpp"
#include "cuda_marker.hpp"
#include "plexus/cpu_pause.hpp"

namespace plexus::cuda {
namespace {

// How long the launch thread spins for more work before it sleeps.
std::chrono::microseconds spin_time() {
  static const auto time = microseconds_from_environment("PLEXUS_CUDA_LAUNCH_SPIN_US", 100);
  return time;
}

// PLEXUS_CUDA_LAUNCH_THREAD, read for each queue: "0" off, "always", else (default) auto.
CudaLauncher::Mode mode_from_environment() {
  const char* value = std::getenv("PLEXUS_CUDA_LAUNCH_THREAD");
  if (value && std::strcmp(value, "0") == 0) return CudaLauncher::Mode::off;
  if (value && std::strcmp(value, "always") == 0) return CudaLauncher::Mode::always;
  return CudaLauncher::Mode::chains;
}

}  // namespace

CudaLauncher::CudaLauncher(CudaDevice& device, CUstream stream, CudaQueueStats* stats,
                           Describe describe)
    : device_(device),
      stream_(stream),
      stats_(stats),
      describe_(std::move(describe)),
      mode_(mode_from_environment()) {
  device_.attach_launcher(*this);
}

CudaLauncher::~CudaLauncher() {
  device_.detach_launcher(*this);
  if (!thread_.joinable()) return;
  drain();
  {
    std::lock_guard lock(mutex_);
    stopping_.store(true);
  }
  wake_cv_.notify_one();
  thread_.join();
}

bool CudaLauncher::hand_off(const Launch& launch, void* const* parameters,
                            std::span<const KernelArgument> arguments) {
  const std::size_t count = arguments.size();
  if (mode_ == Mode::off || count > max_parameters) return false;
  const std::uint64_t number = handed_off_.load(std::memory_order_relaxed);
  const bool idle = number == issued_.load(std::memory_order_acquire);
  if (idle && (!thread_.joinable() || sleeping_.load())) {
    // Asleep with nothing queued: a lone launch goes faster from here. One that follows
    // another within the spin time wakes the thread for the rest of the chain.
    if (mode_ == Mode::chains) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_declined_ < spin_time()) try_wake();
      last_declined_ = now;
      return false;
    }
    if (!try_wake()) return false;
  }
  Slot& slot = free_slot(number);
  std::size_t used = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t size = arguments[i].kind == KernelArgumentKind::scalar
                                 ? arguments[i].size
                                 : sizeof(std::uint64_t);
    const std::size_t at = (used + 15) / 16 * 16;
    if (at + size > max_parameter_bytes) return false;  // nothing published yet
    std::memcpy(slot.bytes.data() + at, parameters[i], size);
    slot.offsets[i] = static_cast<std::uint16_t>(at);
    used = at + size;
  }
  slot.launch = launch;
  slot.count = count;
  slot.record = nullptr;
  publish(number);
  return true;
}

bool CudaLauncher::hand_off_record(CudaMarker& marker) {
  if (mode_ == Mode::off) return false;
  const std::uint64_t number = handed_off_.load(std::memory_order_relaxed);
  const bool idle = number == issued_.load(std::memory_order_acquire);
  if (idle && (!thread_.joinable() || sleeping_.load())) return false;  // record it here
  Slot& slot = free_slot(number);
  slot.record = &marker;
  slot.count = 0;
  publish(number);
  return true;
}

CudaLauncher::Slot& CudaLauncher::free_slot(std::uint64_t number) {
  // Full ring: wait for a slot, as a driver's push buffer does.
  spin_until([&] { return number - issued_.load(std::memory_order_acquire) < ring_size; });
  return ring_[number & (ring_size - 1)];
}

void CudaLauncher::publish(std::uint64_t number) noexcept {
  // Once published, the slot is the thread's to issue: nothing after this may throw (an
  // exception would report a launch as refused that still runs, or free a marker the ring
  // still points to). The thread exists: hand_off() and hand_off_record() publish only then.
  static_assert(noexcept(wake()), "waking the launch thread must not throw");
  handed_off_.store(number + 1);  // sequentially consistent: pairs with sleeping_ below
  if (sleeping_.load()) wake();
}

bool CudaLauncher::try_wake() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) {
      try {
        // The ring only now: queues that never chain launches (many do not) pay nothing.
        if (!ring_) ring_.reset(new Slot[ring_size]);
        sleeping_.store(true);  // until it runs: hand_off() keeps launching itself meanwhile
        thread_ = std::thread([this] { run(); });
      } catch (const std::exception&) {
        return false;  // std::system_error, std::bad_alloc: launches keep going from the caller
      }
      thread_started_.store(true);
    }
    wake_requested_ = true;
  }
  wake_cv_.notify_one();
  return true;
}

void CudaLauncher::wake() noexcept {
  {
    std::lock_guard lock(mutex_);
    wake_requested_ = true;
  }
  wake_cv_.notify_one();
}

void CudaLauncher::drain() {
  const std::uint64_t number = handed_off_.load(std::memory_order_relaxed);
  if (issued_.load(std::memory_order_acquire) == number) return;
  wait_issued(number);
}

void CudaLauncher::wait_issued(std::uint64_t number) const {
  spin_until([&] { return issued_.load(std::memory_order_acquire) >= number; });
}

std::vector<CudaLauncher::Failure> CudaLauncher::take_failures(std::uint64_t after,
                                                               std::uint64_t upto) {
  std::lock_guard lock(failures_mutex_);
  std::vector<Failure> taken;
  if (failures_.empty()) return taken;
  const auto in_range = [&](const Failure& f) { return f.number > after && f.number <= upto; };
  for (Failure& failure : failures_)
    if (in_range(failure)) taken.push_back(std::move(failure));
  std::erase_if(failures_, in_range);
  return taken;
}

CUresult CudaLauncher::launch_here(const Launch& launch, void** parameters) {
  drain();
  ScopedContext scope(device_.driver(), device_.context());
  return call_driver(launch, parameters);
}

CUresult CudaLauncher::call_driver(const Launch& launch, void** parameters) {
  const auto started = stats_ ? CudaQueueStats::clock::now() : CudaQueueStats::clock::time_point{};
  const CUresult result = device_.driver().launch_kernel(
      launch.function, launch.grid[0], launch.grid[1], launch.grid[2], launch.block[0],
      launch.block[1], launch.block[2], launch.shared_bytes, stream_, parameters, nullptr);
  if (stats_) stats_->driver_launch_ns += CudaQueueStats::since(started);
  return result;
}

void CudaLauncher::issue(const Slot& slot, std::uint64_t number) {
  if (slot.record) {
    // A failed record reaches the marker's waiter, which then orders on the host.
    slot.record->record_from_launcher(stream_);
    return;
  }
  std::array<void*, max_parameters> parameters;
  for (std::size_t i = 0; i < slot.count; ++i)
    parameters[i] = const_cast<std::byte*>(slot.bytes.data() + slot.offsets[i]);
  const CUresult result = call_driver(slot.launch, parameters.data());
  if (stats_) stats_->thread_launches += 1;
  if (result == CUDA_SUCCESS) return;
  std::exception_ptr failure;
  try {
    failure = describe_(result, *slot.launch.kernel);
  } catch (...) {
    failure = std::current_exception();
  }
  std::lock_guard lock(failures_mutex_);
  failures_.push_back({number, std::move(failure)});
}

void CudaLauncher::run() {
  std::unique_ptr<ScopedContext> scope;
  std::exception_ptr no_context;
  try {
    scope = std::make_unique<ScopedContext>(device_.driver(), device_.context());
  } catch (...) {
    no_context = std::current_exception();
  }
  sleeping_.store(false);
  auto idle_since = std::chrono::steady_clock::now();
  std::uint64_t spins = 0;
  for (;;) {
    const std::uint64_t next = issued_.load(std::memory_order_relaxed);
    if (handed_off_.load(std::memory_order_acquire) > next) {
      if (no_context) {
        std::lock_guard lock(failures_mutex_);
        failures_.push_back({next + 1, no_context});
      } else {
        issue(ring_[next & (ring_size - 1)], next + 1);
      }
      issued_.store(next + 1, std::memory_order_release);
      spins = 0;
      continue;
    }
    if (stopping_.load()) break;
    if (spins++ == 0) idle_since = std::chrono::steady_clock::now();
    if (spins % 64 != 0 || std::chrono::steady_clock::now() - idle_since < spin_time()) {
      cpu_pause();
      continue;
    }
    std::unique_lock lock(mutex_);
    wake_requested_ = false;
    sleeping_.store(true);  // sequentially consistent: pairs with handed_off_ in hand_off()
    wake_cv_.wait(lock, [&] {
      return wake_requested_ || stopping_.load() || handed_off_.load() > next;
    });
    sleeping_.store(false);
    spins = 0;
  }
}

}  // namespace plexus::cuda
