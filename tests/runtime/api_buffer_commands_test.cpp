// Buffer commands (Handler::copy, fill, update_host on accessors) and Queue device selection
// by type and index, on the host device and PoCL: the commands move data through the
// memory model like other tasks, so results are checked after device kernels too; copies
// between accessors and fills on PoCL's queue run on the device (DeviceQueue::copy_within,
// fill_within, or through host memory for patterns OpenCL cannot fill).
#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::require_error;

namespace {

const char* const kernels = R"(
__kernel void twice(__global int* data) { data[get_global_id(0)] *= 2; }
)";

std::unique_ptr<plexus::Runtime> runtime() {
  return plexus::test::make_runtime({"inorder", "whole"}, "\"host\", \"opencl\", \"cuda\"");
}

}  // namespace

TEST_CASE("copy, fill and update_host on accessors, around device kernels") {
  auto rt = runtime();
  const plexus::KernelBundle bundle = rt->build(kernels);
  for (plexus::Device* device : rt->devices()) {
    DYNAMIC_SECTION(device->info().name) {
      plexus::Queue q = rt->queue(*device);
      const std::size_t n = 300;
      std::vector<int> in(n);
      std::iota(in.begin(), in.end(), 1);
      plexus::Buffer<int> a(n), b(n);
      q.submit([&](plexus::Handler& h) { h.copy(in.data(), a.access(h, plexus::discard_write)); });
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"), plexus::Range{n}, a.access(h, plexus::read_write));
      });
      q.submit([&](plexus::Handler& h) {  // the device's result, copied into b
        h.copy(a.access(h, plexus::read), b.access(h, plexus::discard_write));
      });
      q.submit([&](plexus::Handler& h) {  // part of b filled
        h.fill(b.access(h, plexus::write, plexus::Range{10}, plexus::Range{100}), -5);
      });
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"), plexus::Range{n}, b.access(h, plexus::read_write));
      });
      std::vector<int> out(n, 0);
      q.submit([&](plexus::Handler& h) { h.copy(b.access(h, plexus::read), out.data()); }).wait();
      for (std::size_t i = 0; i < n; ++i)
        REQUIRE(out[i] == (i >= 100 && i < 110 ? -10 : 4 * in[i]));
    }
  }
}

TEST_CASE("copy of a 2D sub-range goes row by row, a larger destination takes the first elements") {
  auto rt = runtime();
  plexus::Queue q = rt->queue();
  std::vector<int> grid(6 * 5);
  std::iota(grid.begin(), grid.end(), 0);
  plexus::Buffer<int, 2> m(grid.data(), plexus::Range{6, 5});
  std::vector<int> tile(3 * 2, -1);
  q.submit([&](plexus::Handler& h) {  // rows 2..4, columns 1..2
     h.copy(m.access(h, plexus::read, plexus::Range{3, 2}, plexus::Range{2, 1}), tile.data());
   })
      .wait();
  CHECK(tile == std::vector<int>{11, 12, 16, 17, 21, 22});
  plexus::Buffer<int> line(8);
  q.submit([&](plexus::Handler& h) { h.fill(line.access(h, plexus::discard_write), 0); });
  q.submit([&](plexus::Handler& h) {
    h.copy(m.access(h, plexus::read, plexus::Range{2, 2}), line.access(h, plexus::write));
  });
  std::vector<int> got(8);
  line.copy_to(got.data());
  CHECK(got == std::vector<int>{0, 1, 5, 6, 0, 0, 0, 0});
}

TEST_CASE("update_host brings a device's result to the host before a host access asks") {
  auto rt = runtime();
  plexus::Device* pocl = plexus::test::device_with_own_memory(*rt);
  if (!pocl) {
    WARN("no device with its own memory (PoCL): skipped");
    return;
  }
  const plexus::KernelBundle bundle = rt->build(kernels);
  plexus::Queue q = rt->queue(*pocl);
  const std::size_t n = 64;
  std::vector<int> in(n, 3);
  plexus::Buffer<int> a(in.data(), n);
  q.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("twice"), plexus::Range{n}, a.access(h, plexus::read_write));
  });
  const plexus::LocationId device = rt->location_of(*pocl);
  const auto before = rt->memory_report().between(device, plexus::host_location).copies;
  q.submit([&](plexus::Handler& h) { h.update_host(a.access(h, plexus::read)); }).wait();
  const auto updated = rt->memory_report().between(device, plexus::host_location).copies;
  CHECK(updated == before + 1);
  {
    auto view = a.host_access(plexus::read);  // already valid: no copy
    CHECK(view[0] == 6);
    CHECK(view[n - 1] == 6);
  }
  CHECK(rt->memory_report().between(device, plexus::host_location).copies == updated);
}

// Every device with memory of its own: PoCL here; on a GPU machine also the GPU, through
// CUDA and through its OpenCL platform.
TEST_CASE("copy between accessors and fill run on a device with memory of its own") {
  auto rt = runtime();
  if (!plexus::test::device_with_own_memory(*rt)) {
    WARN("no device with its own memory (PoCL): skipped");
    return;
  }
  const plexus::KernelBundle bundle = rt->build(kernels);
  for (plexus::Device* own : rt->devices()) {
    if (own->shares_host_memory()) continue;
    DYNAMIC_SECTION(own->info().name) {
      plexus::Queue q = rt->queue(*own);
      const plexus::LocationId device = rt->location_of(*own);
      const std::size_t n = 4096;
      std::vector<int> in(n);
      std::iota(in.begin(), in.end(), 1);
      std::vector<int> grid(6 * 5);
      std::iota(grid.begin(), grid.end(), 0);
      struct Triple {  // 12 bytes: no OpenCL fill takes it (through host memory instead)
        int a, b, c;
      };
      plexus::Buffer<int> a(in.data(), n), b(n), c(n), line(8);
      plexus::Buffer<int, 2> m(grid.data(), plexus::Range{6, 5});
      plexus::Buffer<Triple> triples(100);
      q.submit([&](plexus::Handler& h) {  // a, then m, valid on the device only
        h.parallel_for(bundle.kernel("twice"), plexus::Range{n}, a.access(h, plexus::read_write));
      });
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"), plexus::Range{30}, m.access(h, plexus::read_write));
      });
      q.wait();
      const auto to_host = rt->memory_report().between(device, plexus::host_location).copies;
      q.submit([&](plexus::Handler& h) {
        h.copy(a.access(h, plexus::read), b.access(h, plexus::discard_write));
      });
      q.submit([&](plexus::Handler& h) { h.fill(c.access(h, plexus::discard_write), 9); });
      q.submit([&](plexus::Handler& h) {
        h.fill(b.access(h, plexus::write, plexus::Range{10}, plexus::Range{100}), -5);
      });
      q.submit([&](plexus::Handler& h) { h.fill(line.access(h, plexus::discard_write), 0); });
      q.submit([&](plexus::Handler& h) {  // rows 2..3, columns 1..3 of m: rows of 3 into one line
        h.copy(m.access(h, plexus::read, plexus::Range{2, 3}, plexus::Range{2, 1}),
               line.access(h, plexus::write));
      });
      q.submit([&](plexus::Handler& h) {
        h.fill(triples.access(h, plexus::discard_write), Triple{1, -2, 3});
      });
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"), plexus::Range{n}, b.access(h, plexus::read_write));
      });
      q.wait();
      // Nothing came back to the host for the commands: they ran on the device.
      CHECK(rt->memory_report().between(device, plexus::host_location).copies == to_host);
      std::vector<int> got_b(n), got_c(n), got_line(8);
      std::vector<Triple> got_triples(100);
      b.copy_to(got_b.data());
      c.copy_to(got_c.data());
      line.copy_to(got_line.data());
      triples.copy_to(got_triples.data());
      for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(got_b[i] == (i >= 100 && i < 110 ? -10 : 4 * in[i]));
        REQUIRE(got_c[i] == 9);
      }
      CHECK(got_line == std::vector<int>{22, 24, 26, 32, 34, 36, 0, 0});
      for (const Triple& t : got_triples) REQUIRE((t.a == 1 && t.b == -2 && t.c == 3));
    }
  }
}

TEST_CASE("buffer commands refuse accessors of the wrong mode or group") {
  auto rt = runtime();
  plexus::Queue q = rt->queue();
  plexus::Buffer<int> a(16);
  std::vector<int> host(16);
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) { h.copy(host.data(), a.access(h, plexus::read)); });
      },
      error_category::invalid_argument, "copy: the destination accessor is read-only");
  require_error(
      [&] {
        q.submit(
            [&](plexus::Handler& h) { h.copy(a.access(h, plexus::discard_write), host.data()); });
      },
      error_category::invalid_argument, "the source accessor is discard_write");
  require_error(
      [&] { q.submit([&](plexus::Handler& h) { h.fill(a.access(h, plexus::read), 1); }); },
      error_category::invalid_argument, "fill: the accessor is read-only");
}

TEST_CASE("a destination range smaller than the source is refused") {
  auto rt = runtime();
  plexus::Queue q = rt->queue();
  plexus::Buffer<int> big(16), small(4);
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) {
          h.copy(big.access(h, plexus::read), small.access(h, plexus::write));
        });
      },
      error_category::invalid_argument,
      "the destination accessor's range holds 4 elements, the source's 16");
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) {
          auto other = big.access(h, plexus::read);
          q.submit([&](plexus::Handler& inner) { inner.update_host(other); });
        });
      },
      error_category::invalid_argument,
      "update_host: the accessor was made for another command group");
}

TEST_CASE("queues by device type and by index") {
  auto rt = runtime();
  const std::vector<plexus::Device*> devices = rt->devices();
  REQUIRE(devices.size() >= 2);  // the host device and PoCL's
  CHECK(&rt->queue(std::size_t{1}).device() == devices[1]);
  CHECK(&rt->queue(std::size_t{0}, plexus::QueueOrder::out_of_order).device() == devices[0]);
  require_error([&] { (void)rt->queue(std::size_t{7}); }, error_category::invalid_argument,
                "queue(7): no device 7; the runtime's devices: 0: '" + devices[0]->info().name);
  for (const plexus::DeviceType type :
       {plexus::DeviceType::cpu, plexus::DeviceType::gpu, plexus::DeviceType::accelerator}) {
    plexus::Device* first = nullptr;
    for (plexus::Device* device : devices)
      if (!first && device->info().type == type) first = device;
    DYNAMIC_SECTION(plexus::to_string(type)) {
      if (first) {
        CHECK(&rt->queue(type).device() == first);
      } else {
        require_error([&] { (void)rt->queue(type); }, error_category::unsupported,
                      "queue: no " + std::string(plexus::to_string(type)) +
                          " device; the runtime's devices: 0: '");
      }
    }
  }
}
