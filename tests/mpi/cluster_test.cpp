// The mpi backend in real MPI jobs: tests/mpi/CMakeLists.txt starts mpirun with this program
// as rank 0 and `plexus worker` on the other ranks, one job per tag (each tag expects its
// own job: workers, hooks, options). The remote devices are the workers' host devices, or PoCL
// devices for the [runtime] job run a second time (CMakeLists.txt).
#include <catch2/catch.hpp>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "backend_loader.hpp"
#include "cluster_config.hpp"
#include "failure_bounds.hpp"
#include "plexus/plexus.hpp"
#include "plexus/version.hpp"

namespace {

using namespace plexus;

std::map<std::string, std::uint64_t> counters_of(const Backend& backend) {
  std::map<std::string, std::uint64_t> values;
  for (const BackendCounter& counter : backend.counters()) values[counter.name] = counter.value;
  return values;
}

Backend& mpi_backend_of(const Runtime& rt) {
  const ComponentSet& components = rt.components();
  for (std::size_t i = 0; i < components.backend_count(); ++i)
    if (components.backend(i).device_count() > 0 &&
        components.backend(i).device(0).info().name.find(" rank ") != std::string::npos)
      return components.backend(i);
  FAIL("no mpi backend with devices in the runtime");
  throw;
}

const char* const kernels = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
__kernel void add(__global int* v, int amount) { v[get_global_id(0)] += amount; }
)";

using test::cluster_config;
using test::eventually;
using test::failure_bound;
using test::seconds_since;
using namespace std::chrono_literals;

// `data` copied to `device` and back, on a fresh queue and allocation: what came back.
template <class T>
std::vector<T> round_trip(Device& device, const std::vector<T>& data) {
  const auto layout = CopyLayout::contiguous(0, data.size() * sizeof(T));
  std::vector<T> back(data.size());
  void* memory = device.allocate(layout.bytes());
  {
    auto queue = device.create_queue();
    queue->copy_to_device(memory, data.data(), layout);
    queue->copy_to_host(back.data(), memory, layout);
    queue->wait();
  }
  device.deallocate(memory);
  return back;
}

}  // namespace

// Job: 1 + 2 workers.
TEST_CASE("a runtime program runs OpenCL C kernels on remote devices", "[runtime]") {
  for (const auto& [scheduler, memory] :
       std::vector<std::pair<std::string, std::string>>{{"dag", "paged"}, {"inorder", "exact"}}) {
    DYNAMIC_SECTION("scheduler " << scheduler << ", memory " << memory) {
      Runtime rt(cluster_config(scheduler, memory));
      const auto devices = rt.devices();
      REQUIRE(devices.size() == 2);
      CHECK_THAT(devices[0]->info().name, Catch::Contains(" rank 1: "));
      CHECK_THAT(devices[1]->info().name, Catch::Contains(" rank 2: "));
      auto bundle = rt.build(kernels);
      // Each remote kernel's work-group limit is the worker's (load_module's reply): its host
      // device's, whatever the kernel.
      for (Device* device : devices)
        CHECK(bundle.kernel("saxpy").max_work_group_size(*device) ==
              device->info().max_work_group_size);
      const std::size_t n = 100000;
      std::vector<float> x(n), y(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = float(i % 97), y[i] = 1.0f;
      {
        Buffer<float> bx(x.data(), n), by(y.data(), n);
        for (Device* device : devices) {
          Queue q = rt.queue(*device);
          q.submit([&](Handler& h) {
            h.parallel_for(bundle.kernel("saxpy"), Range{n}, 2.0f, bx.access(h, plexus::read),
                           by.access(h, plexus::read_write));
          });
        }
        by.copy_to(y.data());
      }
      for (std::size_t i = 0; i < n; ++i)
        if (y[i] != 4.0f * float(i % 97) + 1.0f) FAIL("y[" << i << "] is " << y[i]);
    }
  }
}

// Job: 1 + 2 workers.
TEST_CASE("data written on one remote device and used on another goes worker to worker",
          "[runtime]") {
  Runtime rt(cluster_config("dag", "paged"));
  const auto devices = rt.devices();
  REQUIRE(devices.size() == 2);
  Backend& mpi = mpi_backend_of(rt);
  auto bundle = rt.build(kernels);
  const std::size_t n = std::size_t{3} << 20;  // 12 MiB: three 4 MiB chunks
  std::vector<int> host(n, 1);
  const auto before = counters_of(mpi);
  {
    Buffer<int> data(host.data(), n);
    Queue first = rt.queue(*devices[0]), second = rt.queue(*devices[1]);
    auto on_first = first.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("add"), Range{n}, data.access(h, plexus::read_write), 10);
    });
    second.submit([&](Handler& h) {
      h.depends_on(on_first);
      h.parallel_for(bundle.kernel("add"), Range{n}, data.access(h, plexus::read_write), 100);
    });
    data.copy_to(host.data());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (host[i] != 111) FAIL("element " << i << " is " << host[i]);
  const auto after = counters_of(mpi);
  const std::uint64_t bytes = n * sizeof(int);
  INFO(rt.memory_report_text());
  // In: rank 0 -> rank 1 once; across: rank 1 -> rank 2 directly; out: rank 2 -> rank 0.
  CHECK(after.at("bytes_to_workers") - before.at("bytes_to_workers") == bytes);
  CHECK(after.at("bytes_from_workers") - before.at("bytes_from_workers") == bytes);
  CHECK(after.at("worker_to_worker_bytes_sent") - before.at("worker_to_worker_bytes_sent") == bytes);
  CHECK(after.at("worker_to_worker_bytes_received") - before.at("worker_to_worker_bytes_received") ==
        bytes);
  const auto stats = rt.memory_report();
  CHECK(stats.device_copies.direct_bytes == bytes);
  CHECK(stats.device_copies.staged_bytes == 0);
}

// Job: 1 + 2 workers. Small transfers travel in eager-sized pieces (chunks.hpp: 4032 bytes
// under Open MPI's defaults, up to 16 KiB), a host->remote copy inline only when its whole
// message fits one piece: every size around those limits, contiguous and strided, arrives
// whole in all three directions (sender and receiver cut alike).
TEST_CASE("copies around the piece and inline limits arrive whole in every direction", "[runtime]") {
  Runtime rt(cluster_config("dag", "paged"));
  const auto devices = rt.devices();
  REQUIRE(devices.size() == 2);
  Device& first = *devices[0];
  Device& second = *devices[1];
  const std::size_t pitch = 20000;  // strided layouts: rows this far apart
  std::vector<CopyLayout> layouts;
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{3900}, std::size_t{4031},
                                  std::size_t{4032}, std::size_t{4033}, std::size_t{4096},
                                  std::size_t{8064}, std::size_t{12345}, std::size_t{16384},
                                  std::size_t{16385}, std::size_t{65536}})
    layouts.push_back(CopyLayout::contiguous(7, bytes));
  layouts.push_back({3, 1000, 5, 1, pitch, 5 * pitch});   // 5000 bytes in 5 rows
  layouts.push_back({0, 4100, 4, 1, pitch, 4 * pitch});   // 16400 bytes: one message
  const std::size_t span = 8 * pitch;
  void* on_first = first.allocate(span);
  void* on_second = second.allocate(span);
  auto to_first = first.create_queue();
  auto to_second = second.create_queue();
  for (const CopyLayout& layout : layouts) {
    INFO("offset " << layout.offset << ", " << layout.rows << " rows of " << layout.row_bytes);
    std::vector<unsigned char> source(span), back(span, 0);
    for (std::size_t i = 0; i < span; ++i) source[i] = static_cast<unsigned char>(i * 7 + layout.bytes());
    to_first->copy_to_device(on_first, source.data(), layout);
    to_first->wait();
    REQUIRE(to_second->copy_from_device(on_second, first, on_first, layout));
    to_second->copy_to_host(back.data(), on_second, layout);
    to_second->wait();
    for (std::size_t slice = 0; slice < layout.slices; ++slice)
      for (std::size_t row = 0; row < layout.rows; ++row) {
        const std::size_t at = layout.offset + slice * layout.slice_pitch + row * layout.row_pitch;
        if (std::memcmp(back.data() + at, source.data() + at, layout.row_bytes) != 0)
          FAIL("row " << row << " of slice " << slice << " came back changed");
      }
  }
  to_first.reset();
  to_second.reset();
  first.deallocate(on_first);
  second.deallocate(on_second);
}

// Job: 1 + 2 workers. A module whose binary holds a 64 KiB table: its load_module message
// is over the control receive's capacity, so it travels announced, on a tag of its own.
TEST_CASE("a control message over the posted receive's capacity arrives whole", "[runtime]") {
  Runtime rt(cluster_config("inorder", "exact"));
  std::string source = "__constant int table[16384] = {";
  for (int i = 0; i < 16384; ++i) source += std::to_string(i * 7 % 1000) + ",";
  source += "};\n__kernel void look(__global int* v) { size_t i = get_global_id(0); "
            "v[i] = table[i * 13 % 16384]; }\n";
  auto bundle = rt.build(source);
  const std::size_t n = 4096;
  std::vector<int> v(n, -1);
  {
    Buffer<int> buffer(v.data(), n);
    Queue q = rt.queue(*rt.devices()[1]);
    q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("look"), Range{n}, buffer.access(h, plexus::write));
    });
    buffer.copy_to(v.data());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (v[i] != static_cast<int>((i * 13 % 16384) * 7 % 1000)) FAIL("v[" << i << "] is " << v[i]);
}

// Job: 1 + 2 workers.
TEST_CASE("copies and fills within a remote device run on its worker, not through rank 0",
          "[runtime]") {
  const auto backend = test::load_backend("mpi");
  REQUIRE(backend->device_count() == 2);
  Device& device = backend->device(0);
  const std::size_t n = 65536;  // 256 KiB: a copy through rank 0 would show in its counters
  const std::size_t bytes = n * sizeof(int);
  std::vector<int> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
  void* a = device.allocate(bytes);
  void* b = device.allocate(bytes);
  auto queue = device.create_queue();
  const std::uint64_t sent = counters_of(*backend).at("bytes_to_workers");
  queue->copy_to_device(a, data.data(), CopyLayout::contiguous(0, bytes));
  queue->wait();
  // Its send is counted once MPI completes it on rank 0 (just after the worker's report).
  eventually([&] { return counters_of(*backend).at("bytes_to_workers") >= sent + bytes; },
             test::load_slack);
  const auto before = counters_of(*backend);
  REQUIRE(before.at("bytes_to_workers") == sent + bytes);
  REQUIRE(queue->copy_within(b, 0, a, 0, bytes));                  // b = data
  REQUIRE(queue->copy_within(a, 0, b, bytes / 2, bytes / 2));      // a's first half = 2nd half
  const int seven = 7;
  REQUIRE(queue->fill_within(b, bytes / 2, &seven, sizeof seven, bytes / 4));  // b[n/2, 3n/4)
  queue->wait();
  const auto after = counters_of(*backend);
  CHECK(after.at("bytes_to_workers") == before.at("bytes_to_workers"));
  CHECK(after.at("bytes_from_workers") == before.at("bytes_from_workers"));
  std::vector<int> back_a(n), back_b(n);
  queue->copy_to_host(back_a.data(), a, CopyLayout::contiguous(0, bytes));
  queue->copy_to_host(back_b.data(), b, CopyLayout::contiguous(0, bytes));
  queue->wait();
  for (std::size_t i = 0; i < n; ++i) {
    const int want_a = i < n / 2 ? data[i + n / 2] : data[i];
    const int want_b = i >= n / 2 && i < 3 * n / 4 ? 7 : data[i];
    if (back_a[i] != want_a) FAIL("a[" << i << "] is " << back_a[i] << ", not " << want_a);
    if (back_b[i] != want_b) FAIL("b[" << i << "] is " << back_b[i] << ", not " << want_b);
  }
  // Bad arguments are refused on rank 0, naming the operation, and send nothing.
  CHECK_THROWS_WITH(queue->copy_within(b, bytes - 4, a, 0, 8),
                    Catch::Contains("copy_within on") && Catch::Contains("past the allocation"));
  CHECK_THROWS_WITH(queue->fill_within(b, 2, &seven, sizeof seven, 8),
                    Catch::Contains("multiples of the 4-byte pattern"));
  queue->wait();
  device.deallocate(a);
  device.deallocate(b);
}

// Job: 1 + 2 workers. Copies out of a worker's host device send straight from its memory
// and go beside each other; a later write on the queue waits until they have gone, so each
// copy carries what the region held when the queue reached it (256 KiB each: sends that
// wait for their receiver, both to rank 0 and to the other worker).
TEST_CASE("copies out of a remote device stream, and a later write waits for them", "[runtime]") {
  const auto backend = test::load_backend("mpi");
  REQUIRE(backend->device_count() == 2);
  Device& device = backend->device(0);
  Device& other = backend->device(1);
  const std::size_t n = 65536, bytes = n * sizeof(int);
  const auto layout = CopyLayout::contiguous(0, bytes);
  std::vector<int> first(n), second(n);
  for (std::size_t i = 0; i < n; ++i) first[i] = static_cast<int>(i), second[i] = -static_cast<int>(i);
  void* memory = device.allocate(bytes);
  void* across = other.allocate(bytes);
  std::vector<std::vector<int>> backs(6, std::vector<int>(n, 0));
  {
    auto queue = device.create_queue();
    auto other_queue = other.create_queue();
    for (int round = 0; round < 20; ++round) {
      queue->copy_to_device(memory, first.data(), layout);
      queue->copy_to_host(backs[0].data(), memory, layout);
      queue->copy_to_host(backs[1].data(), memory, layout);
      queue->copy_to_host(backs[2].data(), memory, layout);
      queue->copy_to_device(memory, second.data(), layout);  // after the three have gone
      queue->copy_to_host(backs[3].data(), memory, layout);
      queue->wait();
      REQUIRE(other_queue->copy_from_device(across, device, memory, layout));
      other_queue->copy_to_host(backs[4].data(), across, layout);
      other_queue->wait();
      queue->copy_to_device(memory, first.data(), layout);
      queue->copy_to_host(backs[5].data(), memory, layout);
      queue->wait();
      for (int i = 0; i < 3; ++i) REQUIRE(backs[i] == first);
      REQUIRE(backs[3] == second);
      REQUIRE(backs[4] == second);
      REQUIRE(backs[5] == first);
    }
  }
  device.deallocate(memory);
  other.deallocate(across);
}

// Job: 1 + 2 workers. Streams of small copies with one wait each, as the bench times them
// (bench/mpi/mpi_bench.cpp): 8 host->remote, 8 remote->remote (each its own rows, worker to
// worker) and 8 remote->host, at 4 KiB (two eager pieces each) and 64 KiB (one message).
// A worker's queue takes in the next operation before it reports itself idle (one report
// per stream): every row arrives whole, in order, and the counters show the remote->remote
// bytes going directly between the workers, none through rank 0.
TEST_CASE("streams of small copies in every direction arrive whole, worker to worker directly",
          "[runtime]") {
  const auto backend = test::load_backend("mpi");
  REQUIRE(backend->device_count() == 2);
  Device& first = *&backend->device(0);
  Device& second = *&backend->device(1);
  constexpr std::size_t rows = 8;
  // 100 bytes: inside the copy's message to a worker (counted all the same).
  for (const std::size_t bytes : {std::size_t{100}, std::size_t{4096}, std::size_t{65536}}) {
    INFO(bytes << " bytes a copy");
    const std::size_t span = rows * bytes;
    std::vector<unsigned char> source(span), back(span, 0);
    for (std::size_t i = 0; i < span; ++i) source[i] = static_cast<unsigned char>(i * 13 + i / bytes);
    void* on_first = first.allocate(span);
    void* on_second = second.allocate(span);
    const auto before = counters_of(*backend);
    {
      auto to_first = first.create_queue();
      auto to_second = second.create_queue();
      for (int round = 0; round < 10; ++round) {
        for (std::size_t row = 0; row < rows; ++row)
          to_first->copy_to_device(on_first, source.data(), CopyLayout::contiguous(row * bytes, bytes));
        to_first->wait();
        for (std::size_t row = 0; row < rows; ++row)
          REQUIRE(to_second->copy_from_device(on_second, first, on_first,
                                              CopyLayout::contiguous(row * bytes, bytes)));
        to_second->wait();
        std::fill(back.begin(), back.end(), 0);
        for (std::size_t row = 0; row < rows; ++row)
          to_second->copy_to_host(back.data(), on_second, CopyLayout::contiguous(row * bytes, bytes));
        to_second->wait();
        for (std::size_t row = 0; row < rows; ++row)
          if (std::memcmp(back.data() + row * bytes, source.data() + row * bytes, bytes) != 0)
            FAIL("round " << round << ": row " << row << " came back changed");
      }
    }
    const auto after = counters_of(*backend);
    const std::uint64_t moved = 10 * span;
    CHECK(after.at("bytes_to_workers") - before.at("bytes_to_workers") == moved);
    CHECK(after.at("bytes_from_workers") - before.at("bytes_from_workers") == moved);
    CHECK(after.at("worker_to_worker_bytes_sent") - before.at("worker_to_worker_bytes_sent") == moved);
    CHECK(after.at("worker_to_worker_bytes_received") -
              before.at("worker_to_worker_bytes_received") ==
          moved);
    first.deallocate(on_first);
    second.deallocate(on_second);
  }
}

// Job: 1 + 2 workers; the worker of rank 1 is killed (SIGKILL, PLEXUS_MPI_TEST_KILL=1:5)
// when its 5th message from rank 0 arrives: the copy to it. The failure is the configured
// timeout's (its text names it), within failure_bound of it: the timeout, its check's period
// and slack for a loaded machine, less than the default timeout (20 s). timeout_ms = 3000: a
// live worker under load must not be taken for dead (with 1000 one was, test [lost]).
TEST_CASE("a killed worker fails the work placed on it, naming the node, within the timeout",
          "[killed]") {
  const auto timeout = 3000ms;
  const auto backend = test::load_backend("mpi", "timeout_ms = 3000");
  REQUIRE(backend->status().available);
  REQUIRE(backend->device_count() == 2);
  Device& doomed = backend->device(0);
  Device& survivor = backend->device(1);
  std::vector<int> data(1000, 7), back(1000, 0);
  const auto layout = CopyLayout::contiguous(0, data.size() * sizeof(int));
  {
    void* on_doomed = doomed.allocate(layout.bytes());  // message 2 (hello is 1)
    auto queue = doomed.create_queue();                  // 3
    queue->copy_to_device(on_doomed, data.data(), layout);  // 4
    queue->copy_to_host(back.data(), on_doomed, layout);    // 5: the worker dies
    const auto start = std::chrono::steady_clock::now();
    try {
      queue->wait();
      FAIL("wait() on a killed worker's queue returned");
    } catch (const error& e) {
      CHECK(e.category() == error_category::device);
      CHECK_THAT(e.what(), Catch::Contains("rank 1") && Catch::Contains("node '"));
      CHECK_THAT(e.what(), Catch::Contains("no message for") &&
                               Catch::Contains("(timeout 3000 ms)"));
    }
    const double seconds = seconds_since(start);
    INFO("failed after " << seconds << " s; bound " << failure_bound(timeout).count() << " ms");
    CHECK(seconds * 1000 < failure_bound(timeout).count());
    // Later work on it fails at once, naming it.
    CHECK_THROWS_WITH(doomed.allocate(16), Catch::Contains("rank 1"));
    doomed.deallocate(on_doomed);
  }
  CHECK(round_trip(survivor, data) == data);  // the other worker goes on
}

// Job: 1 + 1 worker claiming another Plexus version (PLEXUS_MPI_TEST_VERSION).
TEST_CASE("a worker of another version is refused, naming both versions", "[mismatch]") {
  const auto backend = test::load_backend("mpi");
  const BackendStatus status = backend->status();
  INFO(status.reason);
  CHECK_FALSE(status.available);
  CHECK(backend->device_count() == 0);
  CHECK_THAT(status.reason, Catch::Contains("Plexus 0.0.0-mismatch") &&
                                Catch::Contains(std::string("Plexus ") + PLEXUS_VERSION_STRING) &&
                                Catch::Contains("rank 1"));
}

// Job: 1 + 2 workers; rank 1 answers rank 0's greeting as a worker of protocol 7 or earlier
// does: with a protocol error (rank 0 pads its hello to rank 1, PLEXUS_MPI_TEST_CORRUPT=
// hello.1>1:pad, so that the worker finds bytes after its end, as an older worker finds the
// piece size), of the protocol before (rank 1's `older`), not a refusal naming both
// versions. Rank 3's answer (its welcome) comes damaged: listed too, as unreadable. Rank 2
// joins, its welcome held 2 s (`late`) so that it comes after the others' answers: the
// handshake waits for it (a refused worker counts once).
TEST_CASE("a worker that answers the greeting with an older protocol's error is named a mismatch",
          "[older]") {
  const auto backend = test::load_backend("mpi");
  const BackendStatus status = backend->status();
  INFO(status.reason);
  CHECK(status.available);
  REQUIRE(backend->device_count() == 1);
  CHECK_THAT(backend->device(0).info().name, Catch::Contains(" rank 2: "));
  const std::vector<int> data(256, 9);
  CHECK(round_trip(backend->device(0), data) == data);
  CHECK_THAT(status.reason,
             Catch::Contains("rank 1: it answered rank 0's greeting with message 'protocol_error'") &&
                 Catch::Contains("1 unexpected bytes after the end") &&
                 Catch::Contains("mpi protocol versions differ: rank 0 has ") &&
                 Catch::Contains(std::string("(Plexus ") + PLEXUS_VERSION_STRING + "), the worker has "));
  CHECK_THAT(status.reason,
             Catch::Contains("rank 3: its answer to rank 0's greeting could not be read") &&
                 Catch::Contains("checksum mismatch") &&
                 Catch::Contains("a worker of another version? rank 0 has mpi protocol "));
}

// Job: 1 + 3 workers whose first reply is damaged (PLEXUS_MPI_TEST_CORRUPT): rank 1 flips a
// byte, rank 2 truncates it, rank 3 gives it an unknown type.
TEST_CASE("corrupt messages from workers are errors naming the node", "[corrupt]") {
  const auto backend = test::load_backend("mpi", "timeout_ms = 5000");
  REQUIRE(backend->status().available);
  REQUIRE(backend->device_count() == 3);
  const std::map<std::size_t, std::string> expected = {
      {0, "checksum mismatch"}, {1, "truncated"}, {2, "unknown"}};
  for (const auto& [index, words] : expected) {
    INFO("device " << index);
    try {
      void* memory = backend->device(index).allocate(64);
      backend->device(index).deallocate(memory);
      FAIL("a damaged reply was accepted");
    } catch (const error& e) {
      CHECK(e.category() == error_category::device);
      CHECK_THAT(e.what(), Catch::Contains("rank " + std::to_string(index + 1)) &&
                               Catch::Contains(words));
    }
  }
}

// Job: 1 + 1 worker; rank 0 damages its 3rd message (hello, allocate, then this one).
TEST_CASE("a corrupt message from rank 0 is refused by the worker, and reported", "[corrupt0]") {
  const auto backend = test::load_backend("mpi", "timeout_ms = 5000");
  REQUIRE(backend->status().available);
  Device& device = backend->device(0);
  void* memory = device.allocate(64);  // 2
  try {
    void* more = device.allocate(64);  // 3: damaged
    device.deallocate(more);
    FAIL("a damaged request was served");
  } catch (const error& e) {
    CHECK_THAT(e.what(), Catch::Contains("rank 1") && Catch::Contains("could not accept") &&
                             Catch::Contains("checksum mismatch"));
  }
  device.deallocate(memory);
}

namespace {

// The jobs below run rank 0 with timeout_ms = 5000.
constexpr auto damage_timeout = 5000ms;

// How `operation` on `device` failed: its error's text, or, when it returned (the damage
// reached the node just after), the node's failure, awaited within failure_bound. Empty when
// nothing failed. A bad message fails its node at once, by the check that refused it: never
// by the heartbeat timeout ("no message for"), which would mean the damage went unnoticed
// and the node was failed only because it fell silent. Checked within failure_bound: never
// a hang.
std::string failure_of(Device& device, const std::function<void()>& operation) {
  const auto start = std::chrono::steady_clock::now();
  std::string failure;
  try {
    operation();
  } catch (const error& e) {
    CHECK(e.category() == error_category::device);
    failure = e.what();
  }
  if (failure.empty()) {
    eventually([&] { return !device.lost().empty(); }, failure_bound(damage_timeout));
    failure = device.lost();
  }
  INFO("failure after " << seconds_since(start) << " s: " << failure);
  CHECK(seconds_since(start) * 1000 < failure_bound(damage_timeout).count());
  CHECK_THAT(failure, !Catch::Contains("no message for"));
  return failure;
}

// failure_of `operation` on a queue of `device` and an allocation of `bytes` there (made
// before, released after).
std::string failure_on_queue(Device& device, std::size_t bytes,
                             const std::function<void(DeviceQueue&, void*)>& operation) {
  void* memory = device.allocate(bytes);
  std::string failure;
  {
    auto queue = device.create_queue();
    failure = failure_of(device, [&] { operation(*queue, memory); });
  }
  device.deallocate(memory);
  return failure;
}

}  // namespace

// Job: 1 + 3 workers, each damaging one message of protocol 2 with its header and checksum
// right (PLEXUS_MPI_TEST_CORRUPT, resealed), so that rank 0's checks of the payload are
// what refuses it: rank 1's first `done` reports an operation 1000 ahead of those sent,
// rank 2's first `done` is one byte short, rank 3's first reply comes twice.
TEST_CASE("a worker's damaged reports and replies are errors naming the node, never hangs",
          "[damaged]") {
  const auto backend = test::load_backend("mpi", "timeout_ms = 5000");
  REQUIRE(backend->status().available);
  REQUIRE(backend->device_count() == 3);
  std::vector<int> data(64, 5);
  const auto layout = CopyLayout::contiguous(0, data.size() * sizeof(int));
  const std::map<std::size_t, std::string> expected = {
      {0, "reported finished, of"}, {1, "truncated"}};
  for (const auto& [index, words] : expected) {
    INFO("device " << index);
    Device& device = backend->device(index);
    const std::string failure =
        failure_on_queue(device, layout.bytes(), [&](DeviceQueue& queue, void* memory) {
          // The worker reports `done` when the queue falls idle before rank 0 asks (a
          // wait() that found no report within its spin asks with a notify, whose answer
          // replaces the report): a pause lets it fall idle first, one that doubles after
          // each miss (to 128 ms), so that a loaded machine's slow worker is waited for.
          for (int attempt = 0; attempt < 100; ++attempt) {
            queue.copy_to_device(memory, data.data(), layout);
            std::this_thread::sleep_for(2ms * (1 << std::min(attempt, 6)));
            queue.wait();  // returns on the `done` report: the damaged one
          }
        });
    CHECK_THAT(failure, Catch::Contains("rank " + std::to_string(index + 1)) &&
                            Catch::Contains("invalid message 'done'") && Catch::Contains(words));
    CHECK_THAT(device.lost(), Catch::Contains(words));
  }
  Device& third = backend->device(2);
  std::string failure = failure_of(third, [&] {
    void* memory = third.allocate(64);  // answered by the first copy of the reply
    third.deallocate(memory);
  });
  CHECK_THAT(failure, Catch::Contains("rank 3") && Catch::Contains("which it was not sent"));
  // Later work on it fails at once with the same reason.
  CHECK_THROWS_WITH(third.allocate(64), Catch::Contains("rank 3") &&
                                            Catch::Contains("which it was not sent"));
}

// Job: 1 + 3 workers; rank 0 damages three messages of protocol 2, resealed: its first
// copy_in (to rank 1) carries an operation number 1000 ahead, its first copy_out (to rank 2)
// goes twice (an operation number repeated), its first notify (to rank 3) has a byte more.
// Each worker refuses the message, says why and stops; rank 0 fails that node only.
TEST_CASE("rank 0's damaged operations are refused by the worker, and reported", "[damaged0]") {
  const auto backend = test::load_backend("mpi", "timeout_ms = 5000");
  REQUIRE(backend->status().available);
  REQUIRE(backend->device_count() == 3);
  std::vector<int> data(64, 5), back(64, 0);
  const auto layout = CopyLayout::contiguous(0, data.size() * sizeof(int));
  const std::vector<std::string> expected = {"operation 1001 of a queue whose last was 0",
                                             "operation 1 of a queue whose last was 1",
                                             "1 unexpected bytes after the end"};
  for (std::size_t index = 0; index < 3; ++index) {
    INFO("device " << index);
    Device& device = backend->device(index);
    const std::string failure =
        failure_on_queue(device, layout.bytes(), [&](DeviceQueue& queue, void* memory) {
          if (index == 0) queue.copy_to_device(memory, data.data(), layout);
          if (index == 1) queue.copy_to_host(back.data(), memory, layout);
          if (index < 2) return queue.wait();
          queue.copy_to_device(memory, data.data(), layout);
          std::promise<void> completed;
          queue.on_complete([&](std::exception_ptr failure) {
            if (failure)
              completed.set_exception(failure);
            else
              completed.set_value();
          });
          completed.get_future().get();
        });
    CHECK_THAT(failure, Catch::Contains("rank " + std::to_string(index + 1)) &&
                            Catch::Contains("could not accept") &&
                            Catch::Contains(expected[index]));
  }
}

// Job: 1 + 4 workers. Rank 1 posts its control receive of 2 KiB (the test hook
// PLEXUS_MPI_TEST_RECEIVE_BYTES), so that rank 0's copy with 3 KiB inline fails that receive,
// as a message from a sender of another protocol would; rank 2's first reply and rank 0's
// first allocate to rank 3 go announced, the announcement claiming more bytes than follow
// (PLEXUS_MPI_TEST_CORRUPT's `short`). Each fails its node only, naming it and why, by the
// check that refused the message (failure_of); rank 4 goes on.
TEST_CASE("a failed control receive and an announced message that comes short fail their node only",
          "[receive]") {
  const auto backend = test::load_backend("mpi", "timeout_ms = 5000");
  REQUIRE(backend->status().available);
  REQUIRE(backend->device_count() == 4);
  std::vector<std::byte> data(3072);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 13);
  const auto layout = CopyLayout::contiguous(0, data.size());
  const std::string refused =
      failure_on_queue(backend->device(0), layout.bytes(), [&](DeviceQueue& queue, void* memory) {
        queue.copy_to_device(memory, data.data(), layout);
        queue.wait();
      });
  CHECK_THAT(refused, Catch::Contains("rank 1") && Catch::Contains("could not accept") &&
                          Catch::Contains("did not fit the 2048-byte receive"));
  const std::map<std::size_t, std::string> expected = {{1, "rank 2"}, {2, "rank 3"}};
  for (const auto& [index, node] : expected) {
    INFO("device " << index);
    Device& device = backend->device(index);
    const std::string failure = failure_of(device, [&] {
      void* memory = device.allocate(64);
      device.deallocate(memory);
    });
    CHECK_THAT(failure, Catch::Contains(node) &&
                            Catch::Contains("its announced 32769-byte message came with"));
    if (index == 2) CHECK_THAT(failure, Catch::Contains("could not accept"));
  }
  CHECK(backend->device(3).lost().empty());
  CHECK(round_trip(backend->device(3), data) == data);
}

// Job: 1 + 2 workers; run several times in a row by CTest. The program ends right after its
// queues go: their destroy_queue (posted to the progress thread) must reach the workers
// before shutdown (a worker that gets it after shutdown refuses it: "queue N does not
// exist", and rank 0 then logged from its progress thread while the process exited).
TEST_CASE("work posted just before the process exits reaches the workers", "[exit]") {
  const auto backend = test::load_backend("mpi");
  REQUIRE(backend->device_count() == 2);
  std::vector<int> data(256, 3);
  const auto layout = CopyLayout::contiguous(0, data.size() * sizeof(int));
  for (std::size_t d = 0; d < 2; ++d) {
    Device& device = backend->device(d);
    void* memory = device.allocate(layout.bytes());
    auto queue = device.create_queue();
    queue->copy_to_device(memory, data.data(), layout);
    queue->wait();
    device.deallocate(memory);  // posted, not waited for
  }  // the queue goes: its destroy_queue is posted, and the last one races with the exit
  std::exit(0);  // at once, as a program whose last statement used the queue
}

namespace {

// Kills (SIGKILL) the worker process of `rank` in this MPI job, as a node that dies: found
// by its environment (this job's id, that rank). False when there is none.
bool kill_worker(int rank) {
  const char* job = std::getenv("OMPI_MCA_ess_base_jobid");
  if (!job) return false;
  const std::string wanted_job = std::string("OMPI_MCA_ess_base_jobid=") + job;
  const std::string wanted_rank = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string environment((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bool job_matches = false, rank_matches = false;
    for (std::size_t at = 0; at < environment.size();) {
      const std::size_t end = std::min(environment.find('\0', at), environment.size());
      const std::string variable = environment.substr(at, end - at);
      job_matches |= variable == wanted_job;
      rank_matches |= variable == wanted_rank;
      at = end + 1;
    }
    if (job_matches && rank_matches) return ::kill(std::stoi(pid), SIGKILL) == 0;
  }
  return false;
}

}  // namespace

// Job: 1 + 2 workers. The worker of rank 1 is killed from outside (SIGKILL) after work has
// completed on both: data whose only valid copy was on it is reported lost, naming the
// node, at every later access; data valid elsewhere is kept.
// timeout_ms = 3000: with 1000 the job failed on a loaded 2-core machine with "no message for
// 1.00 s" (a second of silence from a live process under load); the killed worker is awaited
// within failure_bound of it.
TEST_CASE("buffers whose only copy was on a dead node are reported lost, never stale",
          "[lost]") {
  Runtime rt(Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"mpi\"]\n[backends.mpi]\ntimeout_ms = 3000\n"
      "[scheduler]\nuse = \"dag\"\n[memory]\nuse = \"paged\"\n[compiler]\nuse = \"clang\"\n"
      "[cache]\nuse = \"memory\"\n",
      "lost-test.toml"));
  const auto devices = rt.devices();
  REQUIRE(devices.size() == 2);
  REQUIRE_THAT(devices[0]->info().name, Catch::Contains(" rank 1: "));
  auto bundle = rt.build(kernels);
  const std::size_t n = 4096;
  std::vector<float> written(n, 1.0f), read(n, 5.0f), back(n, 0.0f);
  std::vector<int> elsewhere(n, 2), other_back(n, 0);
  // Written on rank 1 (y of saxpy): its only copy is there. Read there (x): the host keeps
  // its copy. Written on rank 2: kept.
  Buffer<float> lost_buffer(written.data(), n), kept_buffer(read.data(), n);
  Buffer<int> other_buffer(elsewhere.data(), n);
  Queue doomed = rt.queue(*devices[0]), survivor = rt.queue(*devices[1]);
  doomed.submit([&](Handler& h) {
    h.parallel_for(bundle.kernel("saxpy"), Range{n}, 2.0f, kept_buffer.access(h, plexus::read),
                   lost_buffer.access(h, plexus::read_write));
  });
  survivor.submit([&](Handler& h) {
    h.parallel_for(bundle.kernel("add"), Range{n}, other_buffer.access(h, plexus::read_write), 100);
  });
  doomed.wait();
  survivor.wait();

  REQUIRE(kill_worker(1));
  eventually([&] { return !devices[0]->lost().empty(); }, failure_bound(3000ms));
  INFO("lost() after the kill: '" << devices[0]->lost() << "'");
  REQUIRE_THAT(devices[0]->lost(), Catch::Contains("rank 1"));
  CHECK(devices[1]->lost().empty());

  for (int twice = 0; twice < 2; ++twice) {  // every time, never a stale copy
    try {
      lost_buffer.copy_to(back.data());
      FAIL("the data of a dead node was read");
    } catch (const error& e) {
      CHECK(e.category() == error_category::device);
      CHECK_THAT(e.what(), Catch::Contains("lost") && Catch::Contains("rank 1"));
    }
  }
  kept_buffer.copy_to(back.data());
  CHECK(back == read);
  other_buffer.copy_to(other_back.data());
  CHECK(other_back == std::vector<int>(n, 102));
}
