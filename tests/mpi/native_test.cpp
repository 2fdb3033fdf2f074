// Native tasks on remote devices (native_function.hpp): rank 0 (this program) links the
// test's native functions (test_native_functions.hpp), every worker loads the same library
// (`plexus worker --native-library`), and a native task placed on a worker's host device
// runs the function there, by name. Job: 1 + 2 workers, tag [native].
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cluster_config.hpp"
#include "plexus/plexus.hpp"
#include "test_native_functions.hpp"

namespace {

using namespace plexus;

// Registered in this program only: the workers have never heard of it.
int only_here(InteropHandle&, const plexus_test::FailArgs&) { return 0; }
const NativeFunction<plexus_test::FailArgs> only_on_rank0{"test.only_on_rank0", "host", &only_here};

// The error of one native task with `implementation` on `device`, "" when it succeeded.
std::string failure_of(Runtime& rt, Device& device, NativeImplementation implementation) {
  std::vector<int> data(16, 0);
  Buffer<int> buffer(data.data(), data.size());
  Queue q = rt.queue(device);
  try {
    q.submit([&](Handler& h) {
      auto a = buffer.access(h, plexus::read_write);
      h.native_task("probe", {std::move(implementation)});
    });
    q.wait();
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a registered native function runs on remote host devices and writes a buffer",
          "[native]") {
  Runtime rt(test::cluster_config("dag", "paged"));
  const auto devices = rt.devices();
  REQUIRE(devices.size() == 2);
  REQUIRE(devices[0]->native_backend() == "host");
  CHECK_FALSE(devices[0]->runs_native_closures());
  const std::size_t n = 1000;
  std::vector<int> first(n, -1), second(n, -1);
  {
    Buffer<int> a(first.data(), n), b(second.data(), n);
    Queue q0 = rt.queue(*devices[0]), q1 = rt.queue(*devices[1]);
    q0.submit([&](Handler& h) {
      auto out = a.access(h, plexus::write);
      h.native_task("fill", {plexus_test::fill_ints({n, 100})});
    });
    q1.submit([&](Handler& h) {
      auto out = b.access(h, plexus::discard_write);  // accessor 0: what the function fills
      auto after = a.access(h, plexus::read);         // accessor 1: orders it after q0's
      h.native_task("fill", {plexus_test::fill_ints({n, 5000})});
    });
    a.copy_to(first.data());
    b.copy_to(second.data());
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (first[i] != 100 + int(i)) FAIL("first[" << i << "] is " << first[i]);
    if (second[i] != 5000 + int(i)) FAIL("second[" << i << "] is " << second[i]);
  }
}

TEST_CASE("a native function unknown to the worker fails the task, naming node and function",
          "[native]") {
  Runtime rt(test::cluster_config("dag", "paged"));
  REQUIRE(rt.devices().size() == 2);
  const std::string message = failure_of(rt, *rt.devices()[1], only_on_rank0({0}));
  CHECK_THAT(message, Catch::Contains("node '") && Catch::Contains("rank 2") &&
                          Catch::Contains("'test.only_on_rank0'") &&
                          Catch::Contains("not registered") && Catch::Contains("--native-library"));
  // The queue works again after its failure was reported.
  CHECK(failure_of(rt, *rt.devices()[1], plexus_test::fill_ints({16, 1})).empty());
}

TEST_CASE("a native function's error code and exception fail the task, naming node and function",
          "[native]") {
  Runtime rt(test::cluster_config("inorder", "exact"));
  Device& device = *rt.devices().at(0);
  const std::string code = failure_of(rt, device, plexus_test::fail_with_code({7}));
  CHECK_THAT(code, Catch::Contains("node '") && Catch::Contains("rank 1") &&
                       Catch::Contains("native task 'probe'") && Catch::Contains("'test.fail'") &&
                       Catch::Contains("returned error code 7"));
  const std::string thrown = failure_of(rt, device, plexus_test::throw_error({3}));
  CHECK_THAT(thrown, Catch::Contains("node '") && Catch::Contains("rank 1") &&
                         Catch::Contains("'test.throw'") &&
                         Catch::Contains("thrown on purpose, code 3"));
}

TEST_CASE("a native function whose arguments reach past the worker's allocation is refused there",
          "[native]") {
  Runtime rt(test::cluster_config("inorder", "exact"));
  Device& device = *rt.devices().at(1);
  // failure_of's buffer: 16 ints; the worker knows its allocation's bytes itself.
  const std::string message = failure_of(rt, device, plexus_test::fill_ints({17, 0}));
  CHECK_THAT(message, Catch::Contains("node '") && Catch::Contains("rank 2") &&
                          Catch::Contains("'test.fill'") &&
                          Catch::Contains("test.fill of 17 ints needs 17 x 4 bytes of accessor 0, "
                                          "whose memory on '") &&
                          Catch::Contains("' has 64 bytes"));
  CHECK(failure_of(rt, device, plexus_test::fill_ints({16, 0})).empty());  // all of it: fine
}

TEST_CASE("a closure cannot run on a remote device: the submit says so", "[native]") {
  Runtime rt(test::cluster_config("dag", "paged"));
  const std::string message = failure_of(rt, *rt.devices().at(0), {"host", [](InteropHandle&) {}});
  CHECK_THAT(message, Catch::Contains("native task 'probe'") && Catch::Contains("another process") &&
                          Catch::Contains("NativeFunction"));
}
