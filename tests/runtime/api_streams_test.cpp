// Many queues per device under scheduler/dag, through the application API on every device
// here (the host backend, PoCL; CUDA on a GPU machine): two independent kernels on one
// device run at the same time, and a kernel that depends on another never does. Shown
// without timing: the first kernel spins until the second raises a flag (a USM pointer,
// which no accessor tracks, so the two do not conflict), giving up after a bounded number
// of reads; it records whether it saw the flag. Independent: it must see it (the second ran
// while the first spun). Dependent (the second reads what the first wrote): the first can
// not see it, and the second finds the first's result written.
#include <catch2/catch.hpp>

#include <vector>

#include "runtime_test_support.hpp"

namespace {

const char* const kernels = R"(
__kernel void wait_for_flag(__global volatile int* flag, __global int* seen, int limit) {
  int reads = 0;
  while (*flag == 0 && reads < limit) ++reads;
  seen[0] = *flag != 0;
  seen[1] = 1;  // done
}
__kernel void raise_flag(__global volatile int* flag, __global int* order) {
  *flag = 1;
  order[0] = 1;
}
__kernel void raise_flag_after(__global volatile int* flag, __global int* seen) {
  seen[2] = seen[1];  // the first kernel's "done", as this one finds it
  *flag = 1;
})";

// Reads of the flag before the spinning kernel gives up: seconds on a loaded CPU, far more
// than a second kernel on another queue needs to start.
constexpr int patient = 1 << 30;
constexpr int brief = 1 << 22;  // the dependent case: it must give up

struct Flags {
  std::vector<int> zeros = std::vector<int>(4, 0);
  plexus::Buffer<int> flag{zeros.data(), 4};
  plexus::Buffer<int> seen{zeros.data(), 4};
  plexus::Buffer<int> order{zeros.data(), 4};
};

std::unique_ptr<plexus::Runtime> dag_runtime() {
  return plexus::test::make_runtime({"dag", "exact"}, "\"host\", \"opencl\", \"cuda\"",
                                    "[scheduler.dag]\nworkers = 4\n");
}

}  // namespace

TEST_CASE("dag: independent kernels on one device run at the same time",
          "[runtime][dag][streams]") {
  auto rt = dag_runtime();
  bool gpu = false;
  for (plexus::Device* device : rt->devices()) {
    gpu = gpu || device->info().type == plexus::DeviceType::gpu;
    INFO("on '" << device->info().name << "'");
    plexus::Queue q = rt->queue(*device, plexus::QueueOrder::out_of_order);
    const plexus::KernelBundle bundle = rt->build(kernels);
    Flags data;
    int* flag = data.flag.device_pointer(q);
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("wait_for_flag"), plexus::Range{1}, flag,
                     data.seen.access(h, plexus::write), patient);
    });
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("raise_flag"), plexus::Range{1}, flag,
                     data.order.access(h, plexus::write));
    });
    auto seen = data.seen.host_access(plexus::read);
    CHECK(seen[1] == 1);
    CHECK(seen[0] == 1);  // the flag was raised while the first kernel waited for it
    CHECK(data.order.host_access(plexus::read)[0] == 1);
  }
  if (!gpu) WARN("no GPU here (no CUDA driver): the CUDA case runs on a GPU machine only");
}

TEST_CASE("dag: a kernel that depends on another never runs at the same time",
          "[runtime][dag][streams]") {
  auto rt = dag_runtime();
  for (plexus::Device* device : rt->devices()) {
    INFO("on '" << device->info().name << "'");
    plexus::Queue q = rt->queue(*device, plexus::QueueOrder::out_of_order);
    const plexus::KernelBundle bundle = rt->build(kernels);
    Flags data;
    int* flag = data.flag.device_pointer(q);
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("wait_for_flag"), plexus::Range{1}, flag,
                     data.seen.access(h, plexus::read_write), brief);
    });
    q.submit([&](plexus::Handler& h) {  // reads what the first wrote: runs after it
      h.parallel_for(bundle.kernel("raise_flag_after"), plexus::Range{1}, flag,
                     data.seen.access(h, plexus::read_write));
    });
    auto seen = data.seen.host_access(plexus::read);
    CHECK(seen[1] == 1);
    CHECK(seen[0] == 0);  // the flag was not raised while the first kernel ran
    CHECK(seen[2] == 1);  // the second found the first done
  }
}
