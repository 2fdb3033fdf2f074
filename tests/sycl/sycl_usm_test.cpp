// USM (plexus/usm.hpp) with SYCL free-function kernels, on the host device, PoCL (OpenCL
// SVM) and, on the GPU machine, CUDA: the seed's vec_add launched with malloc_device and
// memcpy, memset/fill/copy ordered by events, USM and buffers in one kernel, and the
// errors for pointers the runtime does not know or that belong to another device.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "runtime_test_support.hpp"
#include "sycl_sources.hpp"
#include "sycl_targets.hpp"

using plexus::error_category;
using plexus::test::build_sycl;
using plexus::test::require_error;

namespace {

struct Triple {  // a 12-byte pattern: no native fill on OpenCL (powers of two) or CUDA
  std::int32_t a, b, c;
};

const char* const add_one_source = R"(
#include <sycl/sycl.hpp>
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((sycl::ext::oneapi::experimental::nd_range_kernel<1>))
void add_one(int* data) {
  size_t id = sycl::ext::oneapi::this_work_item::get_nd_item<1>().get_global_linear_id();
  data[id] += 1;
}
)";

// Runs `body(queue)` in a section per device of `t` that has USM device memory, on a queue
// of `order` made for it.
template <class Body>
void on_each_usm_device(const plexus::test::SyclTargets& t, plexus::QueueOrder order, Body&& body) {
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      if (!plexus::test::has_usm_device_memory(*device, *t.runtime)) continue;
      plexus::Queue q = t.runtime->queue(*device, order);
      body(q);
    }
  }
}

}  // namespace

TEST_CASE("the seed's vec_add runs with malloc_device and memcpy on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = build_sycl(t, plexus::test::seed_vec_add_source());
  on_each_usm_device(t, plexus::QueueOrder::in_order, [&](plexus::Queue& q) {
    const std::size_t n = 1000;
    std::vector<float> a(n), b(n), out(n, -1.0f);
    std::iota(a.begin(), a.end(), 0.0f);
    std::iota(b.begin(), b.end(), 10.0f);
    float* da = plexus::malloc_device<float>(n, q);
    float* db = plexus::malloc_device<float>(n, q);
    float* dout = plexus::malloc_device<float>(n, q);
    CHECK(plexus::get_pointer_type(db + 7, q) == plexus::UsmKind::device);
    q.memcpy(da, a.data(), n * sizeof(float));
    q.copy(b.data(), db, n);
    q.parallel_for(bundle.kernel("vec_add"), plexus::nd_range(plexus::Range{n}, plexus::Range{50}),
                   da, db, dout);
    q.memcpy(out.data(), dout, n * sizeof(float)).wait();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == a[i] + b[i]);
    for (float* p : {da, db, dout}) plexus::free(p, q);
    CHECK_FALSE(plexus::get_pointer_type(da, q).has_value());
  });
}

TEST_CASE("memset, fill and copy on USM follow their event dependencies") {
  // scheduler/dag runs commands as soon as their dependencies allow (inorder would run
  // them in submission order whatever the events say).
  plexus::test::SyclTargets t = plexus::test::sycl_targets("dag");
  on_each_usm_device(t, plexus::QueueOrder::out_of_order, [&](plexus::Queue& q) {
    const std::size_t n = 4099;  // not a multiple of any vector width
    auto* x = plexus::malloc_device<std::int32_t>(n, q);
    auto* y = plexus::malloc_device<std::int32_t>(n, q);
    auto* bytes = plexus::malloc_device<unsigned char>(n, q);
    auto* wide = plexus::malloc_device<double>(n, q);
    auto* triples = plexus::malloc_device<Triple>(n, q);

    plexus::Event filled = q.fill(x, std::int32_t{-7}, n);
    plexus::Event tail = q.fill(x + 1000, std::int32_t{42}, 99, {filled});
    plexus::Event copied = q.copy(x, y, n, {tail});
    plexus::Event set = q.memset(bytes, 0xab, n);
    plexus::Event set_part = q.memset(bytes + 10, 0x01, 5, {set});
    plexus::Event wide_filled = q.fill(wide, 2.5, n);
    plexus::Event triples_filled = q.fill(triples, Triple{1, -2, 3}, n);

    std::vector<std::int32_t> hy(n);
    std::vector<unsigned char> hbytes(n);
    std::vector<double> hwide(n);
    std::vector<Triple> htriples(n);
    q.memcpy(hy.data(), y, n * sizeof(std::int32_t), {copied}).wait();
    q.memcpy(hbytes.data(), bytes, n, {set_part}).wait();
    q.copy(wide, hwide.data(), n, {wide_filled}).wait();
    q.copy(triples, htriples.data(), n, {triples_filled}).wait();
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(hy[i] == (i >= 1000 && i < 1099 ? 42 : -7));
      REQUIRE(hbytes[i] == (i >= 10 && i < 15 ? 0x01 : 0xab));
      REQUIRE(hwide[i] == 2.5);
      REQUIRE((htriples[i].a == 1 && htriples[i].b == -2 && htriples[i].c == 3));
    }
    for (void* p : std::initializer_list<void*>{x, y, bytes, wide, triples}) plexus::free(p, q);
  });
}

TEST_CASE("USM host and shared memory are used in place by the host and kernels") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = build_sycl(t, add_one_source);
  for (plexus::Device* device : t.devices) {
    for (const plexus::UsmKind kind : {plexus::UsmKind::host, plexus::UsmKind::shared}) {
      DYNAMIC_SECTION(device->info().name << ": " << plexus::to_string(kind)) {
        plexus::Queue q = t.runtime->queue(*device);
        if (!device->supports_usm(kind)) {
          require_error([&] { (void)plexus::malloc_usm(64, q, kind); }, error_category::unsupported,
                        device->info().name);
          continue;
        }
        const std::size_t n = 512;
        auto* data = static_cast<int*>(plexus::malloc_usm(n * sizeof(int), q, kind));
        for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
        q.parallel_for(bundle.kernel("add_one"), plexus::Range{n}, data).wait();
        for (std::size_t i = 0; i < n; ++i) REQUIRE(data[i] == static_cast<int>(i) + 1);
        q.fill(data, 5, n).wait();  // runs on the host: host memory
        for (std::size_t i = 0; i < n; ++i) REQUIRE(data[i] == 5);
        plexus::free(data, q);
      }
    }
  }
}

TEST_CASE("USM and buffers in one program: a kernel takes both") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = build_sycl(t, plexus::test::seed_vec_add_source());
  on_each_usm_device(t, plexus::QueueOrder::in_order, [&](plexus::Queue& q) {
    const std::size_t n = 777;
    std::vector<float> a(n), b(n), out(n);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), -3.0f);
    float* da = plexus::malloc_device<float>(n, q);
    float* dout = plexus::malloc_device<float>(n, q);
    plexus::Buffer<float> bb(b.data(), n);
    plexus::Buffer<float> bsum(n);
    q.memcpy(da, a.data(), n * sizeof(float));
    q.submit([&](plexus::Handler& h) {  // USM, a buffer's accessor, USM
      h.parallel_for(bundle.kernel("vec_add"), plexus::Range{n}, da, bb.access(h, plexus::read),
                     dout);
    });
    q.submit([&](plexus::Handler& h) {  // buffer + USM into a buffer
      h.parallel_for(bundle.kernel("vec_add"), plexus::Range{n}, bb.access(h, plexus::read), dout,
                     bsum.access(h, plexus::discard_write));
    });
    q.memcpy(out.data(), dout, n * sizeof(float)).wait();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == a[i] + b[i]);
    std::vector<float> sum(n);
    bsum.copy_to(sum.data());
    for (std::size_t i = 0; i < n; ++i) REQUIRE(sum[i] == a[i] + 2 * b[i]);
    plexus::free(da, q);
    plexus::free(dout, q);
  });
}

TEST_CASE("USM commands and kernels recorded in a command graph replay with the data of the day") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = build_sycl(t, add_one_source);
  on_each_usm_device(t, plexus::QueueOrder::in_order, [&](plexus::Queue& q) {
    const std::size_t n = 256;
    std::vector<int> in(n), out(n);
    int* data = plexus::malloc_device<int>(n, q);
    plexus::CommandGraph graph;
    graph.begin_recording(q);
    q.memcpy(data, in.data(), n * sizeof(int));
    q.parallel_for(bundle.kernel("add_one"), plexus::Range{n}, data);
    q.memcpy(out.data(), data, n * sizeof(int));
    graph.end_recording();
    plexus::ExecutableGraph step = graph.finalize();
    for (int round = 0; round < 2; ++round) {
      for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i) * (round + 1);
      q.submit(step).wait();
      for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == static_cast<int>(i) * (round + 1) + 1);
    }
    plexus::free(data, q);
  });
}

TEST_CASE("pointers the runtime does not know, or of another device, are clear errors") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = build_sycl(t, add_one_source);
  plexus::Queue q = t.runtime->queue(*t.devices.front());
  const auto add_one = [&](plexus::Queue& queue, int* data) {
    queue.parallel_for(bundle.kernel("add_one"), plexus::Range{4}, data);
  };
  std::vector<int> plain(16);
  require_error([&] { add_one(q, plain.data()); }, error_category::invalid_argument,
                "kernel 'add_one', argument 1 (");
  require_error([&] { add_one(q, plain.data()); }, error_category::invalid_argument,
                "is not USM memory of this runtime");

  int* freed = plexus::malloc_device<int>(16, q);
  plexus::free(freed, q);
  require_error([&] { add_one(q, freed); }, error_category::invalid_argument, "not USM memory");
  require_error([&] { plexus::free(freed, q); }, error_category::invalid_argument,
                "not a USM allocation of this runtime");

  int* data = plexus::malloc_device<int>(16, q);
  require_error([&] { plexus::free(data + 2, q); }, error_category::invalid_argument,
                "8 bytes into a USM allocation of 64 bytes");
  require_error([&] { q.memcpy(data + 8, plain.data(), 9 * sizeof(int)); },
                error_category::invalid_argument, "runs past its end");
  require_error([&] { q.memcpy(data, nullptr, 4); }, error_category::invalid_argument,
                "the source (nil) is null");
  require_error([&] { (void)plexus::malloc_device(0, q); }, error_category::invalid_argument,
                "0 bytes requested");
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) {
          h.memset(data, 0, 4);
          h.fill(data, 1, 4);
        });
      },
      error_category::invalid_argument, "a command group holds one command; fill follows");

  // Device memory of another device (PoCL's, when there is one).
  for (plexus::Device* other : t.devices) {
    if (other == t.devices.front() || !other->supports_usm(plexus::UsmKind::device)) continue;
    plexus::Queue other_queue = t.runtime->queue(*other);
    int* theirs = plexus::malloc_device<int>(16, other_queue);
    if (!other->shares_host_memory()) {
      require_error([&] { add_one(q, theirs); }, error_category::invalid_argument,
                    "is a USM device allocation of device '" + other->info().name +
                        "'; the kernel runs on device '" + t.devices.front()->info().name + "'");
      require_error([&] { q.memcpy(plain.data(), theirs, 16); }, error_category::invalid_argument,
                    "is a USM device allocation of device '" + other->info().name +
                        "', not of this queue's device");
    }
    plexus::free(theirs, other_queue);
  }
  plexus::free(data, q);
}

#ifdef PLEXUS_TEST_HAVE_CUDA_BACKEND
// The cases above run on a CUDA device too where there is one; this one says when there is
// none, and checks the CUDA allocation kinds (cuMemAlloc, cuMemHostAlloc, cuMemAllocManaged).
TEST_CASE("USM on a CUDA device: the three kinds and a kernel over managed memory") {
  auto rt = plexus::test::make_runtime({"inorder", "whole"}, "\"cuda\"");
  if (rt->devices().empty()) {
    WARN("skipped: no CUDA device here (no driver or no GPU; `plexus info` says which)");
    return;
  }
  plexus::Queue q = rt->queue(plexus::DeviceType::gpu);
  CHECK(q.device().supports_usm(plexus::UsmKind::device));
  CHECK(q.device().supports_usm(plexus::UsmKind::host));
  const plexus::KernelBundle bundle = rt->build(add_one_source, plexus::test::sycl_properties());
  const std::size_t n = 1 << 20;
  int* device_memory = plexus::malloc_device<int>(n, q);
  int* host_memory = plexus::malloc_host<int>(n, q);
  for (std::size_t i = 0; i < n; ++i) host_memory[i] = static_cast<int>(i);
  q.memcpy(device_memory, host_memory, n * sizeof(int));
  q.parallel_for(bundle.kernel("add_one"), plexus::nd_range(plexus::Range{n}, plexus::Range{256}),
                 device_memory);
  q.memcpy(host_memory, device_memory, n * sizeof(int)).wait();
  for (std::size_t i = 0; i < n; ++i) REQUIRE(host_memory[i] == static_cast<int>(i) + 1);
  if (q.device().supports_usm(plexus::UsmKind::shared)) {
    int* managed = plexus::malloc_shared<int>(n, q);
    q.fill(managed, 41, n);  // runs on the host: managed memory
    q.parallel_for(bundle.kernel("add_one"), plexus::nd_range(plexus::Range{n}, plexus::Range{256}),
                   managed)
        .wait();
    for (std::size_t i = 0; i < n; i += 997) REQUIRE(managed[i] == 42);
    plexus::free(managed, q);
  }
  plexus::free(device_memory, q);
  plexus::free(host_memory, q);
}
#endif

TEST_CASE("USM allocations appear in the memory report") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  on_each_usm_device(t, plexus::QueueOrder::in_order, [&](plexus::Queue& q) {
    const plexus::UsmStats before = t.runtime->memory_report().usm;
    int* first = plexus::malloc_device<int>(1000, q);
    int* second = plexus::malloc_device<int>(24, q);
    plexus::UsmStats now = t.runtime->memory_report().usm;
    CHECK(now.allocations == before.allocations + 2);
    CHECK(now.allocated_bytes == before.allocated_bytes + 4096);
    CHECK(now.live_allocations == before.live_allocations + 2);
    CHECK(now.live_bytes == before.live_bytes + 4096);
    CHECK_THAT(t.runtime->memory_report_text(), Catch::Contains("USM: "));
    plexus::free(first, q);
    now = t.runtime->memory_report().usm;
    CHECK(now.allocations == before.allocations + 2);  // made since the start
    CHECK(now.live_allocations == before.live_allocations + 1);
    CHECK(now.live_bytes == before.live_bytes + 96);
    plexus::free(second, q);
    CHECK(t.runtime->memory_report().usm.live_bytes == before.live_bytes);
  });
}
