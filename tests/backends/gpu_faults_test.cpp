// GPU faults (issue 5, "Bad input / faults"), on the CUDA backend (and NVIDIA's OpenCL where
// it applies), through the application API and the Device interface:
//  - more memory than the card has, through plain allocations: a plexus::error naming the
//    size and the device, and the runtime keeps working;
//  - a PTX the driver cannot JIT: plexus::error(build) carrying the driver's JIT log;
//  - a kernel that writes to a wild address: plexus::error(device) on its event and at
//    wait(); the CUDA context is then unusable (the driver's error is sticky), and every
//    later use reports that error instead of crashing or hanging;
//  - CUDA_VISIBLE_DEVICES empty: the cuda backend is unavailable with the reason, and a
//    runtime with skip_missing runs on the other backends (hidden case [visible-devices],
//    run by its own ctest with that environment).
// Without a CUDA device every case is skipped with the reason (WARN). The kernel fault is
// the last case: it poisons the process's context (ctest runs each case in its own process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <future>
#include <optional>
#include <span>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backend_loader.hpp"
#include "plexus/plexus.hpp"

using plexus::error_category;

namespace {

const char* const kernels = R"(
__kernel void fill(__global int* out, int value) { out[get_global_id(0)] = value; }
__kernel void wild(__global int* out, ulong offset) { out[get_global_id(0) + offset] = 1; }
)";

// The CUDA backend's status here (loaded alone, as `plexus info` does).
plexus::BackendStatus cuda_status() {
  return plexus::test::load_backend("cuda")->status();
}

// A runtime over the cuda backend only; nullptr (reported with WARN) without a CUDA device.
std::unique_ptr<plexus::Runtime> cuda_runtime() {
  auto rt = std::make_unique<plexus::Runtime>(plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"cuda\"]\nskip_missing = true\n"
      "[scheduler]\nuse = \"inorder\"\n[memory]\nuse = \"exact\"\n"
      "[compiler]\nuse = \"clang\"\n[cache]\nuse = \"memory\"\n",
      "gpu-faults.toml"));
  if (rt->devices().empty()) {
    WARN("skipped: no CUDA device: " << cuda_status().reason);
    return nullptr;
  }
  return rt;
}

// Expects `call` to throw plexus::error of `category` whose message has every one of `parts`.
void require_error(const std::function<void()>& call, error_category category,
                   const std::vector<std::string>& parts) {
  try {
    call();
  } catch (const plexus::error& failure) {
    INFO(failure.what());
    CHECK(failure.category() == category);
    for (const std::string& part : parts) CHECK_THAT(failure.what(), Catch::Contains(part));
    return;
  }
  FAIL("expected a plexus::error(" << plexus::to_string(category) << ")");
}

// Runs `call` on another thread; fails the test (and ends the process: the call cannot be
// abandoned) if it has not returned within `limit`. Returns what `call` threw, if anything.
std::exception_ptr within(std::chrono::seconds limit, const char* what,
                          std::function<void()> call) {
  std::packaged_task<void()> task(std::move(call));
  auto done = task.get_future();
  std::thread(std::move(task)).detach();
  if (done.wait_for(limit) != std::future_status::ready) {
    FAIL_CHECK(what << ": still running after " << limit.count() << " s (a hang)");
    std::_Exit(3);
  }
  try {
    done.get();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

// Fills a small buffer with 7 on a new queue of `device` and returns it from the host (no
// Catch assertions: it may run on another thread, see within()).
std::vector<int> fill_on(plexus::Runtime& rt, plexus::Device& device) {
  plexus::Queue queue = rt.queue(device);
  const plexus::KernelBundle bundle = rt.build(kernels);
  const std::size_t n = 1024;
  plexus::Buffer<int> out(n);
  queue.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("fill"), plexus::Range{n},
                   out.access(h, plexus::discard_write), 7);
  });
  std::vector<int> host(n);
  out.copy_to(host.data());
  return host;
}

void small_kernel_works(plexus::Runtime& rt, plexus::Device& device) {
  const std::vector<int> host = fill_on(rt, device);
  CHECK(std::count(host.begin(), host.end(), 7) == static_cast<long>(host.size()));
}

// `failure` is a plexus::error(device) whose message has every one of `parts`.
void check_device_error(const std::exception_ptr& failure, const std::vector<std::string>& parts) {
  REQUIRE(failure);
  require_error([&] { std::rethrow_exception(failure); }, error_category::device, parts);
}

// Every GPU device of the cuda and opencl backends (NVIDIA's OpenCL on the GPU machine).
struct GpuDevices {
  std::vector<std::shared_ptr<plexus::Backend>> backends;
  std::vector<plexus::Device*> devices;
};

GpuDevices gpu_devices() {
  GpuDevices found;
  for (const std::string& name : plexus::test::built_backends()) {
    if (name != "cuda" && name != "opencl") continue;
    auto backend = plexus::test::load_backend(name);
    for (std::size_t i = 0; i < backend->device_count(); ++i)
      if (backend->device(i).info().type == plexus::DeviceType::gpu)
        found.devices.push_back(&backend->device(i));
    found.backends.push_back(std::move(backend));
  }
  if (found.devices.empty())
    WARN("skipped: no GPU device (cuda backend: " << cuda_status().reason << ")");
  return found;
}

const char* const broken_ptx = R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry broken(.param .u64 out)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  bogus.instruction.u64 %rd2, %rd1;
  ret;
}
)";

plexus::KernelInfo broken_kernel() {
  plexus::KernelInfo kernel;
  kernel.name = "broken";
  kernel.args = {{"out", plexus::KernelArgKind::global_pointer, 8}};
  return kernel;
}

std::span<const std::byte> bytes_of(const char* text) {
  return {reinterpret_cast<const std::byte*>(text), std::char_traits<char>::length(text)};
}

}  // namespace

TEST_CASE("Device::allocate of more than a GPU's memory names the size and the device",
          "[gpu][faults][oom]") {
  const GpuDevices gpus = gpu_devices();
  for (plexus::Device* device : gpus.devices) {
    const plexus::DeviceInfo& info = device->info();
    INFO("on " << info.name << " (" << info.global_memory_bytes << " bytes)");
    const std::size_t too_much = info.global_memory_bytes + 1;
    require_error([&] { device->allocate(too_much); }, error_category::device,
                  {std::to_string(too_much), info.name});
    // Still usable: an allocation, a copy in and back.
    std::vector<int> in(4096, 42), back(4096, 0);
    void* memory = device->allocate(in.size() * sizeof(int));
    plexus::CopyLayout layout;
    layout.row_bytes = in.size() * sizeof(int);
    const auto queue = device->create_queue();
    queue->copy_to_device(memory, in.data(), layout);
    queue->copy_to_host(back.data(), memory, layout);
    queue->wait();
    device->deallocate(memory);
    CHECK(back == in);
  }
}

TEST_CASE("a buffer larger than the GPU fails its kernel with the size, the runtime goes on",
          "[gpu][faults][oom][cuda]") {
  auto rt = cuda_runtime();
  if (!rt) return;
  plexus::Device& device = *rt->devices().front();
  const plexus::KernelBundle bundle = rt->build(kernels);
  {
    // Never touched on the host: only the device allocation is attempted.
    plexus::Buffer<int> huge(device.info().global_memory_bytes / sizeof(int) + 1024);
    plexus::Queue queue = rt->queue(device);
    const std::vector<std::string> parts{std::to_string(huge.byte_size()), device.info().name};
    // The allocation fails where the runtime makes it: at submission or when the task runs.
    plexus::Event event;
    require_error(
        [&] {
          event = queue.submit([&](plexus::Handler& h) {
            h.parallel_for(bundle.kernel("fill"), plexus::Range{std::size_t(1024)},
                           huge.access(h, plexus::discard_write), 1);
          });
          event.wait();
        },
        error_category::device, parts);
    if (event.valid()) {
      CHECK(event.status() == plexus::TaskStatus::failed);
      require_error([&] { queue.wait(); }, error_category::device, parts);
    }
  }
  small_kernel_works(*rt, device);
}

TEST_CASE("a PTX the driver cannot JIT is a build error with the driver's log",
          "[gpu][faults][jit][cuda]") {
  auto rt = cuda_runtime();
  if (!rt) return;
  plexus::Device& device = *rt->devices().front();
  // Through the application API: a prebuilt PTX image.
  plexus::BundleImage image;
  image.device = &device;
  image.format = image.load_format = plexus::BinaryFormat::ptx;
  image.bytes = bytes_of(broken_ptx);
  image.kernels = {broken_kernel()};
  image.origin = "gpu_faults_test broken PTX";
  // The log is ptxas's: it names the line and the unknown instruction.
  const std::vector<std::string> log{"JIT error log", "bogus"};
  require_error([&] { rt->load({image}); }, error_category::build, log);
  // Through the Device interface.
  require_error([&] { device.load_module(plexus::BinaryFormat::ptx, image.bytes, image.kernels); },
                error_category::build, log);
  small_kernel_works(*rt, device);
}

// Must stay the last case of this file: it leaves the process's CUDA context unusable.
TEST_CASE("a kernel fault fails its event and wait(), the poisoned context errors, no hang",
          "[gpu][faults][kernel-fault][cuda]") {
  auto rt = cuda_runtime();
  if (!rt) return;
  using namespace std::chrono_literals;
  plexus::Device& device = *rt->devices().front();
  small_kernel_works(*rt, device);  // the context works before the fault
  std::optional<plexus::KernelBundle> bundle = rt->build(kernels);
  std::optional<plexus::Buffer<int>> out(std::in_place, std::size_t(1024));
  std::optional<plexus::Queue> queue = rt->queue(device);
  // Elements past the buffer: 4 PiB away, beyond the GPU's (and the host's) address space.
  const std::uint64_t far = std::uint64_t(1) << 50;
  const plexus::Event fault = queue->submit([&](plexus::Handler& h) {
    h.parallel_for(bundle->kernel("wild"), plexus::Range{std::size_t(1024)},
                   out->access(h, plexus::discard_write), far);
  });
  const std::vector<std::string> illegal{"illegal memory access", device.info().name};
  check_device_error(within(60s, "Event::wait on the faulting kernel", [&] { fault.wait(); }),
                     illegal);
  CHECK(fault.status() == plexus::TaskStatus::failed);
  check_device_error(within(60s, "Queue::wait after the fault", [&] { queue->wait(); }), illegal);

  // The driver's error is sticky: the context cannot be used again in this process. Later
  // work reports it (and says so), on a new queue too, instead of crashing or hanging.
  const std::vector<std::string> sticky{"illegal memory access", "restart the process"};
  check_device_error(within(60s, "a kernel after the fault", [&] { fill_on(*rt, device); }),
                     sticky);
  check_device_error(within(60s, "Device::allocate after the fault", [&] {
                       device.deallocate(device.allocate(16));
                     }),
                     sticky);
  // Shutting down does not hang either (releasing memory of a dead context only warns).
  CHECK_FALSE(within(60s, "releasing the runtime after the fault", [&] {
    queue.reset();
    out.reset();
    bundle.reset();
    rt.reset();
  }));
}

TEST_CASE("with CUDA_VISIBLE_DEVICES empty the cuda backend is unavailable, not a crash",
          "[.][visible-devices]") {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || *visible) {
    WARN("skipped: run with CUDA_VISIBLE_DEVICES set and empty (its own ctest does)");
    return;
  }
  const plexus::BackendStatus status = cuda_status();
  INFO(status.reason);
  CHECK_FALSE(status.available);
  CHECK_FALSE(status.reason.empty());
  // With a driver installed the reason says what hid the devices.
  if (status.reason.find("cannot load the CUDA driver") == std::string::npos)
    CHECK_THAT(status.reason, Catch::Contains("CUDA_VISIBLE_DEVICES"));
  // A runtime that asks for cuda and host runs on the host.
  plexus::Runtime rt(plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"cuda\", \"host\"]\nskip_missing = true\n"
      "[scheduler]\nuse = \"inorder\"\n[memory]\nuse = \"exact\"\n"
      "[compiler]\nuse = \"clang\"\n[cache]\nuse = \"memory\"\n",
      "gpu-faults.toml"));
  REQUIRE(rt.devices().size() == 1);
  CHECK(rt.devices().front()->info().type != plexus::DeviceType::gpu);
  small_kernel_works(rt, *rt.devices().front());
}
