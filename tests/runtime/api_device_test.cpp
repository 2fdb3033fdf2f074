// The application API with PoCL (the opencl backend): a device with its own memory
// (location 1), so buffers move. Exact copies and bytes per direction for whole, partial
// and 3D sub-range accesses under each memory policy, discard and uninitialized data never
// transferring, `exact` moving the fewest bytes; over both schedulers.
#include <catch2/catch.hpp>

#include <map>
#include <numeric>
#include <vector>

#include "runtime_test_support.hpp"

using plexus::test::make_runtime;

namespace {

const char* const kernels = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
__kernel void fill(__global float* y, float value) { y[get_global_id(0)] = value; }
__kernel void bump3(__global int* v, ulong n) {
  size_t i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  v[(i * n + j) * n + k] += 1;
}
)";

struct DeviceRun {
  std::unique_ptr<plexus::Runtime> rt;
  plexus::Device* device = nullptr;
  std::unique_ptr<plexus::Queue> queue;
  plexus::KernelBundle bundle{nullptr};
};

DeviceRun device_run(const plexus::test::RuntimeChoice& choice) {
  DeviceRun run;
  run.rt = make_runtime(choice, "\"opencl\"");
  run.device = plexus::test::device_with_own_memory(*run.rt);
  REQUIRE(run.device != nullptr);  // PoCL is installed on every machine that builds Plexus
  REQUIRE(run.rt->location_of(*run.device) == 1);
  run.queue = std::make_unique<plexus::Queue>(run.rt->queue(*run.device));
  run.bundle = run.rt->build(kernels);
  return run;
}

plexus::TransferCounter to_device(const plexus::Runtime& rt) {
  return rt.memory_report().between(plexus::host_location, 1);
}
plexus::TransferCounter to_host(const plexus::Runtime& rt) {
  return rt.memory_report().between(1, plexus::host_location);
}

}  // namespace

TEST_CASE("saxpy on PoCL moves each buffer once each way") {
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto run = device_run(choice);
      const std::size_t n = 4096;
      std::vector<float> x(n), y(n, 1.0f);
      std::iota(x.begin(), x.end(), 0.0f);
      plexus::Buffer<float> bx(x.data(), n), by(y.data(), n);
      auto event = run.queue->submit([&](plexus::Handler& h) {
        h.parallel_for(run.bundle.kernel("saxpy"), plexus::Range{n}, 2.0f,
                       bx.access(h, plexus::read), by.access(h, plexus::read_write));
      });
      by.copy_to(y.data());
      for (std::size_t i = 0; i < n; ++i) REQUIRE(y[i] == 2.0f * float(i) + 1.0f);
      CHECK(to_device(*run.rt).copies == 2);
      CHECK(to_device(*run.rt).bytes == 2 * n * sizeof(float));
      CHECK(to_host(*run.rt).copies == 1);
      CHECK(to_host(*run.rt).bytes == n * sizeof(float));
      CHECK(event.status() == plexus::TaskStatus::complete);
      CHECK(event.start_time() <= event.end_time());
      // Reading again on the host moves nothing; the device copy of x is still valid too.
      by.copy_to(y.data());
      run.queue->submit([&](plexus::Handler& h) {
        h.parallel_for(run.bundle.kernel("saxpy"), plexus::Range{n}, 0.0f,
                       bx.access(h, plexus::read), by.access(h, plexus::read_write));
      });
      run.queue->wait();
      CHECK(to_device(*run.rt).copies == 2);
      CHECK(to_host(*run.rt).copies == 1);
      CHECK(run.rt->memory_report().allocations >= 2);
    }
  }
}

TEST_CASE("discarded and uninitialized data never move to the device") {
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto run = device_run(choice);
      std::vector<float> initial(1024, 5.0f);
      plexus::Buffer<float> overwritten(initial.data(), 1024);
      plexus::Buffer<float> fresh(plexus::Range{1024});
      for (auto* buffer : {&overwritten, &fresh}) {
        run.queue->submit([&](plexus::Handler& h) {
          h.parallel_for(run.bundle.kernel("fill"), plexus::Range{1024},
                         buffer->access(h, buffer == &fresh ? plexus::read_write
                                                            : plexus::discard_write),
                         7.0f);
        });
      }
      CHECK(to_device(*run.rt).copies == 0);
      CHECK(overwritten.host_access()[1023] == 7.0f);
      CHECK(fresh.host_access()[0] == 7.0f);
      CHECK(to_host(*run.rt).bytes == 2 * 1024 * sizeof(float));
    }
  }
}

namespace {

// A kernel writes [256, 512) of a 1024-float buffer on the device (discard), then the host
// reads that part back. Returns the total bytes moved.
std::uint64_t partial_write_then_read(const plexus::test::RuntimeChoice& choice,
                                      std::map<std::string, plexus::MemoryStats>& stats) {
  auto run = device_run(choice);
  std::vector<float> initial(1024, 1.0f);
  plexus::Buffer<float> data(initial.data(), 1024, {.page_extent = {128, 1, 1}});
  run.queue->submit([&](plexus::Handler& h) {
    h.parallel_for(run.bundle.kernel("fill"),
                   plexus::nd_range(plexus::Range{256}, plexus::Range{64}, plexus::Range{256}),
                   data.access(h, plexus::discard_write, plexus::Range{256}, plexus::Range{256}),
                   9.0f);
  });
  {
    auto view = data.host_access(plexus::read, plexus::Range{256}, plexus::Range{256});
    CHECK(view[256] == 9.0f);
    CHECK(view[511] == 9.0f);
  }
  auto whole = data.host_access(plexus::read);
  CHECK(whole[255] == 1.0f);
  CHECK(whole[512] == 1.0f);
  stats[choice.memory] = run.rt->memory_report();
  return run.rt->memory_report().bytes();
}

}  // namespace

TEST_CASE("partial device writes: exact and paged move only the written part back") {
  for (const char* scheduler : {"inorder", "dag"}) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      std::map<std::string, plexus::MemoryStats> stats;
      const auto whole = partial_write_then_read({scheduler, "whole"}, stats);
      const auto paged = partial_write_then_read({scheduler, "paged"}, stats);
      const auto exact = partial_write_then_read({scheduler, "exact"}, stats);
      // exact: nothing to the device (a discard), the 256 written floats back, one copy.
      CHECK(stats["exact"].between(0, 1).bytes == 0);
      CHECK(stats["exact"].between(1, 0).copies == 1);
      CHECK(stats["exact"].between(1, 0).bytes == 256 * sizeof(float));
      // paged (128-float pages, the range is page-aligned): the same.
      CHECK(stats["paged"].between(0, 1).bytes == 0);
      CHECK(stats["paged"].between(1, 0).bytes == 256 * sizeof(float));
      // whole: one page, so the rest goes to the device and the whole buffer comes back.
      CHECK(stats["whole"].between(1, 0).bytes == 1024 * sizeof(float));
      CHECK(exact <= paged);
      CHECK(exact < whole);
    }
  }
}

TEST_CASE("a 3D sub-box moves as one rectangular copy each way") {
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto run = device_run(choice);
      const std::size_t n = 8;
      std::vector<int> cube(n * n * n);
      std::iota(cube.begin(), cube.end(), 0);
      plexus::Buffer<int, 3> data(cube.data(), plexus::Range{n, n, n},
                                  {.page_extent = {2, 2, 2}});
      run.queue->submit([&](plexus::Handler& h) {
        h.parallel_for(run.bundle.kernel("bump3"),
                       plexus::nd_range(plexus::Range{4, 4, 4}, plexus::Range{2, 2, 2},
                                        plexus::Range{2, 2, 2}),
                       data.access(h, plexus::read_write, plexus::Range{4, 4, 4},
                                   plexus::Range{2, 2, 2}),
                       std::uint64_t{n});
      });
      auto view = data.host_access(plexus::read, plexus::Range{4, 4, 4}, plexus::Range{2, 2, 2});
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          for (std::size_t k = 0; k < n; ++k) {
            const bool inside = i >= 2 && i < 6 && j >= 2 && j < 6 && k >= 2 && k < 6;
            if (!inside) continue;  // outside the view's range the host copy is not refreshed
            REQUIRE(view(i, j, k) == int((i * n + j) * n + k) + 1);
          }
        }
      }
      const std::uint64_t box_bytes = 4 * 4 * 4 * sizeof(int);
      if (choice.memory == "whole") {
        CHECK(to_device(*run.rt).bytes == n * n * n * sizeof(int));
        CHECK(to_host(*run.rt).bytes == n * n * n * sizeof(int));
      } else {  // paged (2x2x2 pages, aligned) and exact: just the box, one copy each way
        CHECK(to_device(*run.rt).copies == 1);
        CHECK(to_device(*run.rt).bytes == box_bytes);
        CHECK(to_host(*run.rt).copies == 1);
        CHECK(to_host(*run.rt).bytes == box_bytes);
      }
    }
  }
}
