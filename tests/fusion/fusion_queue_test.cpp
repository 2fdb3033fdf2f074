// The queue protocol of kernel fusion through the application API: start/cancel/complete,
// held kernels, events from submit valid after cancel and complete, the fused kernel with a
// promoted intermediate (never written back), the program cache's fusion level, every early
// cancellation rule, fallback and fuse-or-fail; a device that loads PTX (CUDA, NVIDIA
// OpenCL) fuses from the kernels' NVPTX IR, compiled only when fusion asks.
#include <algorithm>
#include <optional>

#include "../runtime/runtime_test_support.hpp"
#include "fusion_test_kernels.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const source = scale_add_one_kernels;

constexpr std::size_t n = 1024;

// A queue on the first device that loads `format` (the default device when none is given);
// plexus::error(unsupported) naming the devices there are when none does.
Queue queue_on(Runtime& runtime, std::optional<BinaryFormat> format) {
  if (!format) return runtime.queue();
  std::string devices;
  for (Device* device : runtime.devices()) {
    const std::vector<BinaryFormat>& formats = device->info().formats;
    if (std::find(formats.begin(), formats.end(), *format) != formats.end())
      return runtime.queue(*device);
    devices += (devices.empty() ? "'" : ", '") + device->info().name + "'";
  }
  throw error(error_category::unsupported,
              "no device loads " + std::string(to_string(*format)) +
                  (devices.empty() ? " (no devices)" : " (devices: " + devices + ")"));
}

struct Chain {
  explicit Chain(const std::string& scheduler = "inorder", const std::string& backends = "\"host\"",
                 const std::string& memory = "whole", std::optional<BinaryFormat> loads = {})
      : runtime(make_runtime({scheduler, memory}, backends, "[fusion]\nuse = \"llvm\"\n")),
        queue(queue_on(*runtime, loads)),
        bundle(runtime->build(source)),
        x_host(n),
        t_host(n, 7.0f),
        x(x_host.data(), n),
        t(t_host.data(), n),
        y(n) {
    for (std::size_t i = 0; i < n; ++i) x_host[i] = static_cast<float>(i);
    x = Buffer<float>(x_host.data(), n);
  }

  Event scale(Queue& on, std::size_t local = 0) {
    return on.submit([&](Handler& h) {
      NdRange range;
      range.global = {n, 1, 1};
      if (local) range.local = {local, 1, 1};
      h.parallel_for(bundle.kernel("scale"), range, x.access(h, plexus::read), t.access(h, plexus::discard_write),
                     2.0f);
    });
  }
  Event add_one(Queue& on) {
    return on.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("add_one"), Range<1>{n}, t.access(h, plexus::read),
                     y.access(h, plexus::discard_write));
    });
  }
  void check_y() {
    auto view = y.host_access(plexus::read);
    for (std::size_t i = 0; i < n; i += 97) CHECK(view.data()[i] == 2.0f * i + 1.0f);
  }

  std::unique_ptr<Runtime> runtime;
  Queue queue;
  KernelBundle bundle;
  std::vector<float> x_host, t_host;
  Buffer<float> x, t, y;
};

}  // namespace

TEST_CASE("fusion queue: complete_fusion runs one fused kernel, events stay valid",
          "[fusion][runtime][backend-host]") {
  std::vector<std::string> schedulers{"inorder", "dag"};
#ifdef PLEXUS_TEST_HAVE_HEFT
  schedulers.push_back("heft");
#endif
  for (const std::string& scheduler : schedulers) {
    INFO(scheduler);
    Chain chain(scheduler);
    CHECK_FALSE(chain.queue.is_in_fusion_mode());
    chain.queue.start_fusion();
    CHECK(chain.queue.is_in_fusion_mode());
    Event first = chain.scale(chain.queue);
    Event second = chain.add_one(chain.queue);
    CHECK_FALSE(first.is_done());  // held
    Event fused = chain.queue.complete_fusion({promote_private(chain.t), no_barriers()});
    CHECK_FALSE(chain.queue.is_in_fusion_mode());
    fused.wait();
    first.wait();
    second.wait();
    chain.check_y();
    // Promoted: the intermediate was neither computed into nor copied back.
    auto t = chain.t.host_access(plexus::read);
    CHECK(t.data()[5] == 7.0f);
    const ProgramCacheStats stats = chain.runtime->program_cache_stats();
    CHECK(stats.fused.misses == 1);
    CHECK(stats.fused.builds == 1);
  }
}

TEST_CASE("fusion queue: the fused kernel comes from the program cache the second time",
          "[fusion][runtime][backend-host]") {
  Chain chain;
  for (int round = 0; round < 2; ++round) {
    chain.queue.start_fusion();
    chain.scale(chain.queue);
    chain.add_one(chain.queue);
    chain.queue.complete_fusion().wait();
    chain.check_y();
  }
  const ProgramCacheStats stats = chain.runtime->program_cache_stats();
  CHECK(stats.fused.builds == 1);
  CHECK(stats.fused.hits == 1);
  auto t = chain.t.host_access(plexus::read);  // not promoted: written
  CHECK(t.data()[5] == 10.0f);
}

TEST_CASE("fusion queue: cancel_fusion runs the kernels unfused in order",
          "[fusion][runtime][backend-host]") {
  Chain chain;
  chain.queue.start_fusion();
  Event first = chain.scale(chain.queue);
  chain.add_one(chain.queue);
  chain.queue.cancel_fusion();
  CHECK_FALSE(chain.queue.is_in_fusion_mode());
  first.wait();
  chain.check_y();
  CHECK(chain.runtime->program_cache_stats().fused.misses == 0);
  // complete_fusion after the cancellation still returns a valid event.
  chain.queue.complete_fusion().wait();
  chain.queue.cancel_fusion();  // not fusing: nothing happens
}

TEST_CASE("fusion queue: early cancellation rules", "[fusion][runtime][backend-host]") {
  Chain chain;
  Queue other = chain.runtime->queue(*chain.runtime->devices().front());
  chain.queue.start_fusion();
  Event first = chain.scale(chain.queue);
  chain.add_one(chain.queue);
  REQUIRE(chain.queue.is_in_fusion_mode());
  SECTION("a host access to a held kernel's buffer") {
    chain.check_y();
  }
  SECTION("a host task on the fusing queue") {
    chain.queue.submit([&](Handler& h) { h.host_task([] {}); }).wait();
  }
  SECTION("a kernel on another queue that uses a held kernel's buffer") {
    other.submit([&](Handler& h) {
      h.parallel_for(chain.bundle.kernel("add_one"), Range<1>{n}, chain.t.access(h, plexus::read),
                     chain.y.access(h, plexus::discard_write));
    });
  }
  SECTION("a command on another queue that depends on the fusion's event") {
    other.submit([&](Handler& h) {
      h.depends_on(first);
      h.host_task([] {});
    });
  }
  SECTION("a wait on the queue") { chain.queue.wait(); }
  SECTION("a wait on an event from submit") { first.wait(); }
  SECTION("a wait on the runtime") { chain.runtime->wait(); }
  CHECK_FALSE(chain.queue.is_in_fusion_mode());
  Event late = chain.queue.complete_fusion({promote_private(chain.t)});
  late.wait();
  first.wait();
  chain.check_y();
  CHECK(chain.runtime->program_cache_stats().fused.misses == 0);
}

TEST_CASE("fusion queue: independent work elsewhere does not cancel",
          "[fusion][runtime][backend-host]") {
  Chain chain;
  Queue other = chain.runtime->queue(*chain.runtime->devices().front());
  Buffer<float> unrelated(n);
  chain.queue.start_fusion();
  chain.scale(chain.queue);
  other.submit([&](Handler& h) {
    h.parallel_for(chain.bundle.kernel("add_one"), Range<1>{n}, chain.x.access(h, plexus::read),
                   unrelated.access(h, plexus::discard_write));
  }).wait();
  auto view = unrelated.host_access(plexus::read);
  CHECK(view.data()[3] == 4.0f);
  CHECK(chain.queue.is_in_fusion_mode());
  chain.add_one(chain.queue);
  chain.queue.complete_fusion().wait();
  chain.check_y();
  CHECK(chain.runtime->program_cache_stats().fused.builds == 1);
}

TEST_CASE("fusion queue: failure falls back, or fails under fuse_or_fail",
          "[fusion][runtime][backend-host]") {
  Chain chain;
  SECTION("fallback") {
    chain.queue.start_fusion();
    chain.scale(chain.queue, 16);
    chain.scale(chain.queue, 32);  // different local sizes
    chain.add_one(chain.queue);
    chain.queue.complete_fusion().wait();
    chain.check_y();
  }
  SECTION("fuse or fail") {
    chain.queue.start_fusion();
    Event first = chain.scale(chain.queue, 16);
    chain.scale(chain.queue, 32);
    require_error([&] { chain.queue.complete_fusion({fuse_or_fail()}); },
                  error_category::unsupported, "different local sizes");
    CHECK(first.status() == TaskStatus::failed);
    CHECK_FALSE(chain.queue.is_in_fusion_mode());
  }
  SECTION("start_fusion twice") {
    chain.queue.start_fusion();
    require_error([&] { chain.queue.start_fusion(); }, error_category::invalid_argument,
                  "already in fusion mode");
    chain.queue.cancel_fusion();
  }
}

TEST_CASE("fusion queue: PoCL (a device with its own memory) fuses from SPIR code",
          "[fusion][runtime][backend-opencl]") {
  std::unique_ptr<Chain> chain;
  try {
    chain = std::make_unique<Chain>("dag", "\"opencl\"", "exact");
  } catch (const error& failure) {
    WARN("no OpenCL device here: " << failure.what());
    return;
  }
  INFO(chain->queue.device().info().name);
  chain->queue.start_fusion();
  Event first = chain->scale(chain->queue);
  chain->add_one(chain->queue);
  chain->queue.complete_fusion({promote_private(chain->t)}).wait();
  first.wait();
  chain->check_y();
  auto t = chain->t.host_access(plexus::read);
  CHECK(t.data()[5] == 7.0f);  // promoted: never written, nothing copied back
  CHECK(chain->runtime->program_cache_stats().fused.builds == 1);
}

TEST_CASE("fusion queue: a device that loads PTX fuses from the kernels' NVPTX IR",
          "[fusion][runtime][backend-cuda][backend-opencl]") {
  // y = (((x * 2) + 1) * 3) + 1 through t, u, v: four kernels, three promoted intermediates.
  const auto chain_of_four = [](Chain& chain, Buffer<float>& t, Buffer<float>& u,
                                Buffer<float>& v, Buffer<float>& y) {
    const auto scale = [&](Buffer<float>& in, Buffer<float>& out, float by) {
      chain.queue.submit([&](Handler& h) {
        h.parallel_for(chain.bundle.kernel("scale"), Range<1>{n}, in.access(h, plexus::read),
                       out.access(h, plexus::discard_write), by);
      });
    };
    const auto add_one = [&](Buffer<float>& in, Buffer<float>& out) {
      chain.queue.submit([&](Handler& h) {
        h.parallel_for(chain.bundle.kernel("add_one"), Range<1>{n}, in.access(h, plexus::read),
                       out.access(h, plexus::discard_write));
      });
    };
    scale(chain.x, t, 2.0f);
    add_one(t, u);
    scale(u, v, 3.0f);
    add_one(v, y);
  };
  for (const char* backend : {"cuda", "opencl"}) {
    INFO(backend);
    std::unique_ptr<Chain> chain;
    try {
      chain = std::make_unique<Chain>("dag", std::string("\"") + backend + "\"", "exact",
                                      BinaryFormat::ptx);
    } catch (const error& failure) {
      WARN("skipped on " << backend << ": " << failure.what());
      continue;
    }
    INFO(chain->queue.device().info().name);
    // Unfused: the reference; the build compiled PTX only (the IR waits for fusion).
    Buffer<float> t0(n), u0(n), v0(n), y0(n);
    chain_of_four(*chain, t0, u0, v0, y0);
    chain->queue.wait();
    const std::uint64_t built = chain->runtime->program_cache_stats().programs.builds;
    std::vector<float> sevens(n, 7.0f);
    Buffer<float> t(sevens.data(), n), u(sevens.data(), n), v(sevens.data(), n), y(n);
    for (int round = 0; round < 2; ++round) {
      chain->queue.start_fusion();
      chain_of_four(*chain, t, u, v, y);
      chain->queue
          .complete_fusion({promote_private(t), promote_private(u), promote_private(v),
                            no_barriers(), fuse_or_fail()})
          .wait();
    }
    const ProgramCacheStats stats = chain->runtime->program_cache_stats();
    CHECK(stats.programs.builds == built + 1);  // the kernels' NVPTX IR, once
    CHECK(stats.fused.builds == 1);
    CHECK(stats.fused.hits == 1);
    auto fused = y.host_access(plexus::read);
    auto unfused = y0.host_access(plexus::read);
    for (std::size_t i = 0; i < n; ++i) {
      if (fused.data()[i] != unfused.data()[i] || fused.data()[i] != 6.0f * i + 4.0f)
        FAIL_CHECK("y[" << i << "] = " << fused.data()[i] << ", unfused " << unfused.data()[i]);
    }
    // Only the fused kernel leaves the promoted intermediates unwritten.
    for (Buffer<float>* promoted : {&t, &u, &v}) {
      auto view = promoted->host_access(plexus::read);
      CHECK(view.data()[5] == 7.0f);
      CHECK(view.data()[n - 1] == 7.0f);
    }
  }
}

TEST_CASE("fusion queue: destroying a buffer a held kernel uses cancels the fusion",
          "[fusion][runtime][backend-host]") {
  Chain chain;
  chain.queue.start_fusion();
  Event first = chain.scale(chain.queue);
  {
    Buffer<float> result(n);
    chain.queue.submit([&](Handler& h) {
      h.parallel_for(chain.bundle.kernel("add_one"), Range<1>{n}, chain.t.access(h, plexus::read),
                     result.access(h, plexus::discard_write));
    });
    CHECK(chain.queue.is_in_fusion_mode());
  }  // the buffer waits for its tasks: the held kernels must run first
  CHECK_FALSE(chain.queue.is_in_fusion_mode());
  first.wait();
  auto t = chain.t.host_access(plexus::read);
  CHECK(t.data()[3] == 6.0f);
}
