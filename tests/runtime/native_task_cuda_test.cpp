// Native tasks on the CUDA backend: the implementation enqueues driver work on the stream of
// the queue the scheduler chose (cuMemsetD32Async, from libcuda opened here with dlopen) with
// the device's context current; the task ends when the stream has run it, and a kernel after
// it (and a native task after the kernel) see its result. Every scheduler. Without a CUDA
// device the cases are skipped with the reason (WARN).
#include <catch2/catch.hpp>

#include <cuda.h>
#include <dlfcn.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "backend_loader.hpp"
#include "plexus/plexus.hpp"

namespace {

const char* const kernels = R"(
__kernel void add(__global int* v, int amount) { v[get_global_id(0)] += amount; }
)";

// The driver entry points the test calls itself.
struct Driver {
  void* library = nullptr;
  CUresult (*memset_d32_async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
  CUresult (*ctx_get_current)(CUcontext*) = nullptr;
  CUresult (*stream_query)(CUstream) = nullptr;
  explicit Driver() {
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    memset_d32_async = reinterpret_cast<decltype(memset_d32_async)>(dlsym(library, "cuMemsetD32Async"));
    ctx_get_current = reinterpret_cast<decltype(ctx_get_current)>(dlsym(library, "cuCtxGetCurrent"));
    stream_query = reinterpret_cast<decltype(stream_query)>(dlsym(library, "cuStreamQuery"));
  }
  bool usable() const { return memset_d32_async && ctx_get_current && stream_query; }
};

std::unique_ptr<plexus::Runtime> cuda_runtime(const std::string& scheduler) {
  auto rt = std::make_unique<plexus::Runtime>(plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"cuda\", \"host\"]\nskip_missing = true\n"
      "[scheduler]\nuse = \"" + scheduler + "\"\n[memory]\nuse = \"exact\"\n"
      "[compiler]\nuse = \"clang\"\n[cache]\nuse = \"memory\"\n",
      "native-task-cuda.toml"));
  const bool has_cuda = !rt->devices().empty() && rt->devices().front()->native_backend() == "cuda";
  if (!has_cuda) {
    WARN("skipped: no CUDA device: " << plexus::test::load_backend("cuda")->status().reason);
    return nullptr;
  }
  return rt;
}

}  // namespace

TEST_CASE("native tasks on CUDA: driver work on the chosen stream, ordered with kernels") {
  for (const char* scheduler : {"inorder", "dag", "heft"}) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      auto rt = cuda_runtime(scheduler);
      if (!rt) return;
      Driver driver;
      REQUIRE(driver.usable());
      plexus::Device& gpu = *rt->devices().front();
      auto bundle = rt->build(kernels);
      constexpr std::size_t n = 1 << 20, first = n / 4, count = n / 2;
      std::vector<int> host(n);
      std::iota(host.begin(), host.end(), 0);
      plexus::Buffer<int> data(host.data(), n);
      plexus::Queue q = rt->queue(gpu);
      bool context_current = false, on_gpu = false;
      // Every scheduler: the cuda implementation only, so that heft too must use the GPU.
      q.submit([&](plexus::Handler& h) {
        auto a = data.access(h, plexus::read_write, plexus::Range{count}, plexus::Range{first});
        h.native_task("memset", {{"cuda", [&, a](plexus::InteropHandle& ih) {
                                    CUcontext current = nullptr;
                                    driver.ctx_get_current(&current);
                                    context_current = current == ih.native_context<CUcontext>();
                                    on_gpu = &ih.device() == &gpu && ih.backend() == "cuda";
                                    const CUdeviceptr base = ih.native_memory<CUdeviceptr>(a);
                                    return static_cast<int>(driver.memset_d32_async(
                                        base + first * sizeof(int), 0xABCD, count,
                                        ih.native_queue<CUstream>()));
                                  }}});
      });
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("add"), plexus::Range{n}, data.access(h, plexus::read_write), 1);
      });
      auto view = data.host_access(plexus::read);
      CHECK(context_current);
      CHECK(on_gpu);
      for (std::size_t i = 0; i < n; i += 997) {
        INFO("element " << i);
        const bool inside = i >= first && i < first + count;
        CHECK(view[i] == (inside ? 0xABCD : static_cast<int>(i)) + 1);
      }
    }
  }
}

TEST_CASE("native tasks on CUDA: a driver error code fails the event") {
  auto rt = cuda_runtime("dag");
  if (!rt) return;
  Driver driver;
  REQUIRE(driver.usable());
  plexus::Buffer<int> data(plexus::Range{16});
  auto event = rt->queue().submit([&](plexus::Handler& h) {
    auto a = data.access(h, plexus::discard_write);
    h.native_task("bad_memset", {{"cuda", [&, a](plexus::InteropHandle& ih) {
                                    // Not device memory (address 0): the driver refuses it.
                                    (void)ih.native_memory<CUdeviceptr>(a);
                                    return static_cast<int>(driver.memset_d32_async(
                                        0, 0, 16, ih.native_queue<CUstream>()));
                                  }}});
  });
  try {
    event.wait();
    FAIL("the task should have failed");
  } catch (const plexus::error& failure) {
    CHECK_THAT(failure.what(), Catch::Contains("native task 'bad_memset' (cuda) returned error code"));
  }
}
