// Native tasks (interop.hpp) through the application API, on the host backend (two host
// devices: [backends.host] devices = 2) and PoCL (a device with its own memory, OpenCL
// handles): the implementation of the chosen device's backend runs, with the accessors' data
// valid there and its writes visible after; dependencies hold between native tasks and
// kernels; a throw or a nonzero return fails the event (and its dependents) with the message;
// a task without an implementation for its device is an error at submit; heft chooses among
// implementations by their measured cost; independent native tasks on one host device run at
// once (under heft, one per compute unit) and dependent ones never do. The CUDA case is in
// native_task_cuda_test.cpp.
#include <catch2/catch.hpp>

#include <CL/cl.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::make_runtime;
using plexus::test::require_error;
using plexus::test::RuntimeChoice;

namespace {

const char* const kernels = R"(
__kernel void add(__global int* v, int amount) { v[get_global_id(0)] += amount; }
)";

constexpr std::size_t n = 64;

// Host devices split in two, and PoCL when there is one.
std::string two_host_devices_and_pocl() { return "[backends.host]\ndevices = 2\n"; }

// Which implementation ran where: backend and device name, in the order they ran.
struct Ran {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> runs;
  void add(const plexus::InteropHandle& ih) {
    std::lock_guard lock(mutex);
    runs.emplace_back(std::string(ih.backend()), ih.device().info().name);
  }
};

// v[i] = v[i] * 2 + 1 over the accessor's range, on the host or through an OpenCL queue
// (a blocking read and a non-blocking write: the task ends when the queue has run it).
std::vector<plexus::NativeImplementation> twice_plus_one(plexus::Accessor<int, 1> a, Ran& ran) {
  const std::size_t first = a.get_offset()[0], count = a.get_range()[0];
  return {
      {"host",
       [=, &ran](plexus::InteropHandle& ih) {
         ran.add(ih);
         int* v = ih.native_memory<int*>(a);
         for (std::size_t i = first; i < first + count; ++i) v[i] = v[i] * 2 + 1;
       }},
      {"opencl",
       [=, &ran](plexus::InteropHandle& ih) {
         ran.add(ih);
         auto queue = ih.native_queue<cl_command_queue>();
         auto memory = ih.native_memory<cl_mem>(a);
         auto values = std::make_shared<std::vector<int>>(count);
         cl_int code = clEnqueueReadBuffer(queue, memory, CL_TRUE, first * sizeof(int),
                                           count * sizeof(int), values->data(), 0, nullptr, nullptr);
         if (code != CL_SUCCESS) return code;
         for (int& x : *values) x = x * 2 + 1;
         cl_event written = nullptr;
         code = clEnqueueWriteBuffer(queue, memory, CL_FALSE, first * sizeof(int),
                                     count * sizeof(int), values->data(), 0, nullptr, &written);
         if (code != CL_SUCCESS) return code;
         // The values must outlive the write: released by the event's callback.
         auto* keep = new std::shared_ptr<std::vector<int>>(values);
         clSetEventCallback(
             written, CL_COMPLETE,
             [](cl_event, cl_int, void* data) { delete static_cast<std::shared_ptr<std::vector<int>>*>(data); },
             keep);
         clReleaseEvent(written);
         return CL_SUCCESS;
       }},
  };
}

std::vector<int> iota_values() {
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), 0);
  return values;
}

// Submits `count` independent native tasks to `q`, each of which waits (up to a minute) for all of
// them to have started, and returns how many ran at once at most: `count` when they all
// overlap, fewer when the scheduler holds some back until others end.
// With `after`, each also reads it (and so depends on the last task that wrote it).
int most_at_once(plexus::Queue& q, int count, plexus::Buffer<int>* after = nullptr) {
  std::atomic<int> running{0}, most{0}, arrived{0};
  auto meet = [&] {
    const int now = ++running;
    int seen = most.load();
    while (seen < now && !most.compare_exchange_weak(seen, now)) {
    }
    ++arrived;
    // Every use expects them all to meet: the bound only turns "never" into a failure (10 s
    // raced a loaded machine's thread starts).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (arrived.load() < count && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    --running;
  };
  std::vector<std::unique_ptr<plexus::Buffer<int>>> buffers;
  for (int i = 0; i < count; ++i) {
    buffers.push_back(std::make_unique<plexus::Buffer<int>>(plexus::Range{n}));
    q.submit([&](plexus::Handler& h) {
      auto a = buffers.back()->access(h, plexus::discard_write);
      if (after) after->access(h, plexus::read);
      h.native_task("meet", {{"host", [&meet](plexus::InteropHandle&) { meet(); }}});
    });
  }
  q.wait();
  return most.load();
}

}  // namespace

TEST_CASE("native tasks: each device runs its backend's implementation on valid data") {
  for (const char* scheduler : {"inorder", "dag"}) {
    for (const char* memory : {"whole", "exact"}) {
      const RuntimeChoice choice{scheduler, memory};
      DYNAMIC_SECTION(choice.label()) {
        auto rt = make_runtime(choice, "\"host\", \"opencl\"", two_host_devices_and_pocl());
        REQUIRE(rt->devices().size() >= 2);
        for (plexus::Device* device : rt->devices()) {
          INFO("device '" << device->info().name << "' (" << device->native_backend() << ")");
          std::vector<int> host = iota_values();
          plexus::Buffer<int> data(host.data(), n);
          Ran ran;
          plexus::Queue q = rt->queue(*device);
          q.submit([&](plexus::Handler& h) {
            auto a = data.access(h, plexus::read_write, plexus::Range{n / 2}, plexus::Range{n / 4});
            h.native_task("twice_plus_one", twice_plus_one(a, ran));
          }).wait();
          REQUIRE(ran.runs.size() == 1);
          CHECK(ran.runs[0].first == device->native_backend());
          CHECK(ran.runs[0].second == device->info().name);
          auto view = data.host_access(plexus::read);
          for (std::size_t i = 0; i < n; ++i) {
            const int before = static_cast<int>(i);
            const bool inside = i >= n / 4 && i < n / 4 + n / 2;
            INFO("element " << i);
            CHECK(view[i] == (inside ? before * 2 + 1 : before));
          }
        }
      }
    }
  }
}

TEST_CASE("native tasks: dependencies hold between native tasks and kernels, across devices") {
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice, "\"host\", \"opencl\"");
      auto bundle = rt->build(kernels);
      // Out of order: only the buffer accesses order the tasks.
      std::vector<plexus::Queue> queues;
      for (plexus::Device* device : rt->devices())
        queues.push_back(rt->queue(*device, plexus::QueueOrder::out_of_order));
      std::vector<int> host = iota_values();
      plexus::Buffer<int> data(host.data(), n);
      Ran ran;
      std::vector<int> expected = iota_values();
      for (int round = 0; round < 4; ++round) {
        for (plexus::Queue& q : queues) {
          q.submit([&](plexus::Handler& h) {
            h.parallel_for(bundle.kernel("add"), plexus::Range{n},
                           data.access(h, plexus::read_write), round + 1);
          });
          q.submit([&](plexus::Handler& h) {
            h.native_task("twice_plus_one",
                          twice_plus_one(data.access(h, plexus::read_write), ran));
          });
          for (int& x : expected) x = (x + round + 1) * 2 + 1;
        }
      }
      auto view = data.host_access(plexus::read);
      for (std::size_t i = 0; i < n; ++i) {
        INFO("element " << i);
        CHECK(view[i] == expected[i]);
      }
      CHECK(ran.runs.size() == 4 * queues.size());
    }
  }
}

TEST_CASE("native tasks: a throw or a nonzero return fails the event and its dependents") {
  for (const char* scheduler : {"inorder", "dag", "heft"}) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      auto rt = make_runtime({scheduler, "exact"}, "\"host\"");
      plexus::Queue q = rt->queue();
      std::vector<int> host = iota_values();
      plexus::Buffer<int> data(host.data(), n);

      auto thrown = q.submit([&](plexus::Handler& h) {
        auto a = data.access(h, plexus::read_write);
        h.native_task("thrower", {{"host", [a](plexus::InteropHandle&) {
                                     throw std::runtime_error("the matrix is not positive definite");
                                   }}});
      });
      require_error([&] { thrown.wait(); }, error_category::device,
                    "native task 'thrower' (host) failed: the matrix is not positive definite");
      // The in-order queue's next group fails with the same error.
      auto after = q.submit([&](plexus::Handler& h) {
        auto a = data.access(h, plexus::read);
        h.host_task([] {});
      });
      require_error([&] { after.wait(); }, error_category::device, "not positive definite");

      // Other buffers: work on `data` now fails with the thrower's error.
      plexus::Buffer<int> other(host.data(), n), third_data(host.data(), n);
      plexus::Queue fresh = rt->queue();
      auto returned = fresh.submit([&](plexus::Handler& h) {
        auto a = other.access(h, plexus::read_write);
        h.native_task("potrf", {{"host", [](plexus::InteropHandle&) { return 7; }}});
      });
      require_error([&] { returned.wait(); }, error_category::device,
                    "native task 'potrf' (host) returned error code 7");

      // A type the backend does not declare fails the task, naming both types.
      plexus::Queue third = rt->queue();
      auto mistyped = third.submit([&](plexus::Handler& h) {
        auto a = third_data.access(h, plexus::read_write);
        h.native_task("mistyped", {{"host", [](plexus::InteropHandle& ih) {
                                      (void)ih.native_queue<cl_command_queue>();
                                    }}});
      });
      require_error([&] { mistyped.wait(); }, error_category::invalid_argument,
                    "native_queue<_cl_command_queue*>(): the host backend has no such native object");
    }
  }
}

TEST_CASE("native tasks: no implementation for the device is an error at submit") {
  auto rt = make_runtime({"dag", "exact"}, "\"host\", \"opencl\"");
  std::vector<int> host = iota_values();
  plexus::Buffer<int> data(host.data(), n);
  plexus::Device& first = *rt->devices().front();
  REQUIRE(first.native_backend() == "host");
  plexus::Queue bound = rt->queue(first);
  auto cuda_only = [&](plexus::Handler& h) {
    auto a = data.access(h, plexus::read_write);
    h.native_task("potrf", {{"cuda", [](plexus::InteropHandle&) {}}, {"acme", [](plexus::InteropHandle&) {}}});
  };
  require_error([&] { bound.submit(cuda_only); }, error_category::unsupported,
                "native task 'potrf' has no implementation for device '" + first.info().name +
                    "' (backend 'host') that its queue is bound to; it offers 'cuda', 'acme'");
  require_error([&] { rt->queue().submit(cuda_only); }, error_category::unsupported,
                "native task 'potrf' offers implementations for 'cuda', 'acme', but no device of "
                "this runtime has one of those backends");
  require_error([&] {
    bound.submit([&](plexus::Handler& h) { h.native_task("", {{"host", [](plexus::InteropHandle&) {}}}); });
  }, error_category::invalid_argument, "give the task a name");
  require_error([&] {
    bound.submit([&](plexus::Handler& h) {
      h.native_task("twice", {{"host", [](plexus::InteropHandle&) {}}, {"host", [](plexus::InteropHandle&) {}}});
    });
  }, error_category::invalid_argument, "native task 'twice': two implementations for backend 'host'");
  // Nothing was submitted: the buffer is untouched and the queue works.
  bound.submit([&](plexus::Handler& h) {
    auto a = data.access(h, plexus::read_write);
    h.native_task("ok", {{"host", [a](plexus::InteropHandle& ih) { ih.native_memory<int*>(a)[0] = 42; }}});
  }).wait();
  CHECK(data.host_access(plexus::read)[0] == 42);

  // The default queue (not bound to its device) runs it on a device that has one: PoCL.
  if (plexus::test::device_with_own_memory(*rt)) {
    Ran ran;
    rt->queue().submit([&](plexus::Handler& h) {
      auto all = twice_plus_one(data.access(h, plexus::read_write), ran);
      all.erase(all.begin());  // the opencl implementation only
      h.native_task("opencl_only", std::move(all));
    }).wait();
    REQUIRE(ran.runs.size() == 1);
    CHECK(ran.runs[0].first == "opencl");
    CHECK(data.host_access(plexus::read)[0] == 85);
  } else {
    WARN("the default queue's fallback to another device is not checked: no PoCL device");
  }
}

TEST_CASE("native tasks: heft chooses among implementations by their cost") {
  plexus::test::TempDir dir;
  const std::string history = (dir.path() / "heft-history.json").string();
  // The devices' names, as heft keys its measurements.
  std::vector<std::string> names;
  {
    auto rt = make_runtime({"dag", "exact"}, "\"host\", \"opencl\"", two_host_devices_and_pocl());
    for (plexus::Device* device : rt->devices()) names.push_back(device->info().name);
  }
  REQUIRE(names.size() >= 2);
  // Each case makes another device the cheapest for the task (history file measurements);
  // the others cost a second.
  for (std::size_t cheapest = 0; cheapest < names.size(); ++cheapest) {
    DYNAMIC_SECTION("cheapest: " << names[cheapest]) {
      std::string devices;
      for (std::size_t d = 0; d < names.size(); ++d) {
        devices += std::string(d ? ", " : "") + "\"" + names[d] +
                   "\": {\"kernels\": {\"native task twice_plus_one [0]\": {\"mean\": " +
                   (d == cheapest ? "0.000001" : "1.0") + ", \"samples\": 4}}}";
      }
      std::ofstream(history) << "{\"format\": \"plexus-heft-history\", \"version\": 1, "
                                "\"devices\": {" << devices << "}}\n";
      auto rt = make_runtime({"heft", "exact"}, "\"host\", \"opencl\"",
                             two_host_devices_and_pocl() + "[scheduler.heft]\nhistory = \"" +
                                 history + "\"\n");
      std::vector<int> host = iota_values();
      plexus::Buffer<int> data(host.data(), n);
      Ran ran;
      plexus::Queue q = rt->queue();
      for (int i = 0; i < 6; ++i) {
        q.submit([&](plexus::Handler& h) {
          h.native_task("twice_plus_one", twice_plus_one(data.access(h, plexus::read_write), ran));
        });
      }
      q.wait();
      REQUIRE(ran.runs.size() == 6);
      for (const auto& [backend, device] : ran.runs) CHECK(device == names[cheapest]);
      std::vector<int> expected = iota_values();
      for (int& x : expected)
        for (int i = 0; i < 6; ++i) x = x * 2 + 1;
      auto view = data.host_access(plexus::read);
      CHECK(std::equal(expected.begin(), expected.end(), view.data()));
    }
  }
}

TEST_CASE("native tasks: heft measures each implementation and then prefers the cheaper") {
  auto rt = make_runtime({"heft", "exact"}, "\"host\", \"opencl\"");
  if (!plexus::test::device_with_own_memory(*rt)) {
    WARN("skipped: no PoCL device");
    return;
  }
  // The host implementation is slow (it sleeps), the OpenCL one does nothing: after one task
  // on each device (measuring), every task goes to PoCL.
  Ran ran;
  plexus::Queue q = rt->queue();
  auto submit = [&] {
    q.submit([&](plexus::Handler& h) {
      h.native_task("pick", {{"host",
                              [&](plexus::InteropHandle& ih) {
                                ran.add(ih);
                                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                              }},
                             {"opencl", [&](plexus::InteropHandle& ih) { ran.add(ih); }}});
    }).wait();
  };
  for (int i = 0; i < 2; ++i) submit();  // one to measure each device
  std::set<std::string> measured;
  for (const auto& run : ran.runs) measured.insert(run.first);
  CHECK(measured == std::set<std::string>{"host", "opencl"});
  ran.runs.clear();
  for (int i = 0; i < 8; ++i) submit();
  for (const auto& run : ran.runs) CHECK(run.first == "opencl");
}

TEST_CASE("native tasks: independent ones overlap on one host device, dependent ones never do") {
  auto rt = make_runtime({"dag", "exact"}, "\"host\"", "[scheduler.dag]\nworkers = 4\n");
  plexus::Device& device = *rt->devices().front();
  plexus::Queue q = rt->queue(device, plexus::QueueOrder::out_of_order);
  CHECK(most_at_once(q, 3) == 3);

  // Forks: three tasks that read what one task writes wait for it, then run at once (they
  // are not lined up behind it on its worker), on a device of several compute units.
  plexus::Buffer<int> source{plexus::Range{n}};
  q.submit([&](plexus::Handler& h) {
    auto a = source.access(h, plexus::discard_write);
    h.native_task("source", {{"host", [](plexus::InteropHandle&) {
                                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                              }}});
  });
  if (device.info().compute_units >= 2) CHECK(most_at_once(q, 3, &source) == 3);

  // A chain on one buffer: each task depends on the one before (read_write), so they run one
  // at a time, in submission order.
  std::atomic<int> running{0}, most{0};
  std::mutex order_mutex;
  std::vector<int> order;
  plexus::Buffer<int> chain{plexus::Range{n}};
  constexpr int links = 24;
  for (int i = 0; i < links; ++i) {
    q.submit([&, i](plexus::Handler& h) {
      auto a = chain.access(h, plexus::read_write);
      h.native_task("link", {{"host", [&, i](plexus::InteropHandle&) {
                                const int now = ++running;
                                int seen = most.load();
                                while (seen < now && !most.compare_exchange_weak(seen, now)) {
                                }
                                std::this_thread::yield();
                                {
                                  std::lock_guard lock(order_mutex);
                                  order.push_back(i);
                                }
                                --running;
                              }}});
    });
  }
  q.wait();
  CHECK(most.load() == 1);
  std::vector<int> expected(links);
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(order == expected);
}

// A host-backend native task runs on the scheduler's thread and takes one core
// (Device::native_work_on_caller): heft runs one per compute unit at once, as StarPU runs one
// sequential codelet per CPU worker, although it runs one kernel at a time on a CPU.
TEST_CASE("native tasks: heft runs one host native task per compute unit at once") {
  auto rt = make_runtime({"heft", "exact"}, "\"host\"");
  plexus::Device& device = *rt->devices().front();
  const int units = static_cast<int>(std::min<std::uint32_t>(device.info().compute_units, 4));
  if (units < 2) {
    WARN("skipped: the host device has " << units << " compute unit: nothing can overlap");
    return;
  }
  plexus::Queue q = rt->queue(device, plexus::QueueOrder::out_of_order);
  CHECK(most_at_once(q, units) == units);
}

TEST_CASE("native tasks: on one of two host devices, the implementation runs on that device's cores") {
  // [backends.host] devices = 2 splits the process's cores between two devices; a native task
  // runs on a scheduler's thread, which is not pinned, and before the fix it ran on every
  // core whatever device it was placed on. Each device is named by its cores.
  cpu_set_t allowed;
  REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  if (CPU_COUNT(&allowed) < 2) {
    WARN("skipped: this process may use " << CPU_COUNT(&allowed) << " core: one device only");
    return;
  }
  for (const char* scheduler : {"dag", "heft", "inorder"}) {
    DYNAMIC_SECTION("scheduler " << scheduler) {
      auto rt = make_runtime({scheduler, "exact"}, "\"host\"", two_host_devices_and_pocl());
      REQUIRE(rt->devices().size() == 2);
      for (plexus::Device* device : rt->devices()) {
        plexus::Queue q = rt->queue(*device);
        std::set<int> during;
        q.submit([&](plexus::Handler& h) {
          h.native_task("where", {{"host", [&](plexus::InteropHandle&) {
                                     cpu_set_t set;
                                     pthread_getaffinity_np(pthread_self(), sizeof set, &set);
                                     for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
                                       if (CPU_ISSET(cpu, &set)) during.insert(cpu);
                                   }}});
        });
        q.wait();
        // "<cpu> (cores a-b)": the device's cores, a contiguous share of the allowed ones.
        const std::string& name = device->info().name;
        INFO(name);
        const auto open = name.rfind("(cores ");
        REQUIRE(open != std::string::npos);
        const int first = std::stoi(name.substr(open + 7));
        const int last = std::stoi(name.substr(name.find('-', open) + 1));
        REQUIRE(!during.empty());
        CHECK(*during.begin() >= first);
        CHECK(*during.rbegin() <= last);
        CHECK(static_cast<int>(during.size()) < CPU_COUNT(&allowed));
      }
    }
  }
}
