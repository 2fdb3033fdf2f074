// Two devices with their own memory (PoCL with POCL_DEVICES="pthread pthread": locations 1
// and 2): data written on one and read on the other moves device -> device, under every
// memory policy and both schedulers: directly (clEnqueueCopyBuffer) while the two devices
// share their platform's context (the opencl backend's default), staged through host memory
// with share_context = false. Runtime::memory_report() tells which (device_copies).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "runtime_test_support.hpp"

namespace {

const char* const kernels = R"(
__kernel void add(__global int* v, int amount) { v[get_global_id(0)] += amount; }
__kernel void add2(__global int* v, ulong width, int amount) {
  v[get_global_id(0) * width + get_global_id(1)] += amount;
}
__kernel void add3(__global int* v, ulong n, int amount) {
  v[(get_global_id(0) * n + get_global_id(1)) * n + get_global_id(2)] += amount;
}
)";

// The extra TOML for the opencl backend: shared context or not.
std::string opencl_options(bool share) {
  return std::string("[backends.opencl]\nshare_context = ") + (share ? "true" : "false") + "\n";
}

struct TwoDevices {
  std::unique_ptr<plexus::Runtime> rt;
  plexus::Device* first = nullptr;   // location 1
  plexus::Device* second = nullptr;  // location 2
};

TwoDevices two_devices(const plexus::test::RuntimeChoice& choice, bool share) {
  TwoDevices run{plexus::test::make_runtime(choice, "\"opencl\"", opencl_options(share))};
  std::vector<plexus::Device*> own;
  for (plexus::Device* device : run.rt->devices()) {
    if (!device->shares_host_memory()) own.push_back(device);
  }
  REQUIRE(own.size() >= 2);
  REQUIRE(run.rt->location_of(*own[0]) == 1);
  REQUIRE(run.rt->location_of(*own[1]) == 2);
  run.first = own[0];
  run.second = own[1];
  return run;
}

// What the device -> device copies of the run must have been: all direct or all staged
// (PoCL's CPU devices do not pin host memory), `bytes` in all.
void check_device_copies(const plexus::MemoryStats& stats, bool direct, std::uint64_t bytes) {
  const plexus::DeviceCopyStats& copies = stats.device_copies;
  const std::uint64_t moved = stats.between(1, 2).copies + stats.between(2, 1).copies;
  CHECK(moved >= 1);
  CHECK((direct ? copies.direct_copies : copies.staged_copies) == moved);
  CHECK((direct ? copies.direct_bytes : copies.staged_bytes) == bytes);
  CHECK((direct ? copies.staged_copies : copies.direct_copies) == 0);
  CHECK(copies.pinned_staged_bytes == 0);
}

// Runs `body(run, bundle, first, second, choice, share)` on two PoCL devices (queues
// `first` and `second`, the kernels above built) for every runtime choice, with a shared
// context and with contexts of their own, one section each.
template <class Body>
void on_two_devices(Body body) {
  // Read by PoCL when the platform is first opened: this process has not opened it yet.
  plexus::test::ScopedEnv devices("POCL_DEVICES", std::string("pthread pthread"));
  for (const bool share : {true, false}) {
    for (const auto& choice : plexus::test::runtime_matrix()) {
      DYNAMIC_SECTION(choice.label() << (share ? " shared context" : " own contexts")) {
        auto run = two_devices(choice, share);
        auto bundle = run.rt->build(kernels);
        plexus::Queue first = run.rt->queue(*run.first), second = run.rt->queue(*run.second);
        body(run, bundle, first, second, choice, share);
      }
    }
  }
}

}  // namespace

TEST_CASE("data written on one device and used on another moves device to device") {
  on_two_devices([](TwoDevices& run, auto& bundle, plexus::Queue& first, plexus::Queue& second,
                    const plexus::test::RuntimeChoice& choice, bool share) {
    // Staged copies: larger than two staging chunks (8 MiB), so that they pipeline.
    const std::size_t n = share ? 512 : (std::size_t{5} << 20);
    std::vector<int> host(n, 1);
    plexus::Buffer<int> data(host.data(), n, {.page_extent = {n / 4, 1, 1}});
    auto on_first = first.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("add"), plexus::Range{n}, data.access(h, plexus::read_write),
                     10);
    });
    // The second device updates the upper half only: the memory model moves that part.
    second.submit([&](plexus::Handler& h) {
      h.depends_on(on_first);
      h.parallel_for(
          bundle.kernel("add"),
          plexus::nd_range(plexus::Range{n / 2}, plexus::Range{64}, plexus::Range{n / 2}),
          data.access(h, plexus::read_write, plexus::Range{n / 2}, plexus::Range{n / 2}), 100);
    });
    data.copy_to(host.data());
    for (std::size_t i = 0; i < n; ++i)
      if (host[i] != (i < n / 2 ? 11 : 111)) FAIL("element " << i << " is " << host[i]);
    const auto stats = run.rt->memory_report();
    const auto across = stats.between(1, 2);
    CHECK(across.copies == 1);
    if (choice.memory == "whole") {
      CHECK(across.bytes == n * sizeof(int));
    } else {
      CHECK(across.bytes == n / 2 * sizeof(int));
    }
    CHECK(stats.between(0, 2).bytes == 0);  // the host copy was outdated: not a source
    check_device_copies(stats, share, across.bytes);
    INFO(run.rt->memory_report_text());
    CHECK_THAT(run.rt->memory_report_text(),
               Catch::Contains("1 (") && Catch::Contains("-> 2 (") &&
                   Catch::Contains(share ? "1 direct" : "1 staged through the host"));
  });
}

TEST_CASE("2D and 3D sub-boxes move device to device as rectangular copies") {
  on_two_devices([](TwoDevices& run, auto& bundle, plexus::Queue& first, plexus::Queue& second,
                    const plexus::test::RuntimeChoice& choice, bool share) {
    // 2D: 32 x 48, the second device adds to rows 8..23, columns 12..35.
    const std::size_t rows = 32, width = 48;
    std::vector<int> plane(rows * width, 1);
    plexus::Buffer<int, 2> flat(plane.data(), plexus::Range{rows, width},
                                {.page_extent = {4, 4, 1}});
    // 3D: 16^3, the second device adds to the box 4..11 in each dimension.
    const std::size_t n = 16;
    std::vector<int> cube(n * n * n, 1);
    plexus::Buffer<int, 3> solid(cube.data(), plexus::Range{n, n, n}, {.page_extent = {4, 4, 4}});
    first.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("add2"), plexus::Range{rows, width},
                     flat.access(h, plexus::read_write), std::uint64_t{width}, 10);
    });
    first.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("add3"), plexus::Range{n, n, n},
                     solid.access(h, plexus::read_write), std::uint64_t{n}, 10);
    });
    first.wait();
    second.submit([&](plexus::Handler& h) {
      h.parallel_for(
          bundle.kernel("add2"),
          plexus::nd_range(plexus::Range{16, 24}, plexus::Range{4, 4}, plexus::Range{8, 12}),
          flat.access(h, plexus::read_write, plexus::Range{16, 24}, plexus::Range{8, 12}),
          std::uint64_t{width}, 100);
    });
    second.submit([&](plexus::Handler& h) {
      h.parallel_for(
          bundle.kernel("add3"),
          plexus::nd_range(plexus::Range{8, 8, 8}, plexus::Range{2, 2, 2}, plexus::Range{4, 4, 4}),
          solid.access(h, plexus::read_write, plexus::Range{8, 8, 8}, plexus::Range{4, 4, 4}),
          std::uint64_t{n}, 100);
    });
    flat.copy_to(plane.data());
    solid.copy_to(cube.data());
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < width; ++j) {
        const bool inside = i >= 8 && i < 24 && j >= 12 && j < 36;
        if (plane[i * width + j] != (inside ? 111 : 11))
          FAIL("2D element " << i << "," << j << " is " << plane[i * width + j]);
      }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t k = 0; k < n; ++k) {
          const bool inside = i >= 4 && i < 12 && j >= 4 && j < 12 && k >= 4 && k < 12;
          const int value = cube[(i * n + j) * n + k];
          if (value != (inside ? 111 : 11))
            FAIL("3D element " << i << "," << j << "," << k << " is " << value);
        }
    const auto stats = run.rt->memory_report();
    const auto across = stats.between(1, 2);
    INFO(run.rt->memory_report_text());
    if (choice.memory == "whole") {
      CHECK(across.bytes == (rows * width + n * n * n) * sizeof(int));
    } else {  // the boxes only (page-aligned for paged), one rectangular copy each
      CHECK(across.copies == 2);
      CHECK(across.bytes == (16 * 24 + 8 * 8 * 8) * sizeof(int));
    }
    check_device_copies(stats, share, across.bytes);
  });
}
