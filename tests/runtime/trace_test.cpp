// Tracing ([trace] file / PLEXUS_TRACE): the trace and summary a runtime writes at shutdown
// describe the tasks it ran, their dependencies and failures, under both schedulers;
// the config key is checked; one runtime writes a trace at a time; no file when tracing is off;
// copies and launches on PoCL carry device-clock times; compiles, module loads, allocations,
// frees (those at shutdown too) and launch ranges are in it, and each task's wait while
// ready is explained; a replayed command graph shows with the kernels inside it.
#include <catch2/catch.hpp>

#include <boost/json.hpp>
#include <boost/json/src.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../graph/graph_test_kernels.hpp"
#include "plexus/graph.hpp"
#include "plexus/usm.hpp"
#include "runtime_test_support.hpp"

namespace fs = std::filesystem;
using plexus::test::make_runtime;
using plexus::test::RuntimeChoice;

namespace {

boost::json::object read_json(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return boost::json::parse(text.str()).as_object();
}

// The trace's events of phase "X" and category `category`.
std::vector<boost::json::object> slices(const boost::json::object& trace, const char* category) {
  std::vector<boost::json::object> found;
  for (const auto& value : trace.at("traceEvents").as_array()) {
    const auto& event = value.as_object();
    if (event.at("ph").as_string() == "X" && event.at("cat").as_string() == category)
      found.push_back(event);
  }
  return found;
}

// pid -> process name.
std::map<std::int64_t, std::string> process_names(const boost::json::object& trace) {
  std::map<std::int64_t, std::string> names;
  for (const auto& value : trace.at("traceEvents").as_array()) {
    const auto& event = value.as_object();
    if (event.at("ph").as_string() == "M" && event.at("name").as_string() == "process_name")
      names[event.at("pid").as_int64()] = event.at("args").at("name").as_string().c_str();
  }
  return names;
}

double number_at(const boost::json::object& object, const char* key) {
  return object.at(key).to_number<double>();
}

std::string trace_table(const fs::path& file) {
  return "[trace]\nfile = \"" + file.string() + "\"\n";
}

struct ScratchDir {
  fs::path path =
      fs::temp_directory_path() / ("plexus-trace-test-" + std::to_string(::getpid()) + "-" +
                                   std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("the trace holds every task with its dependencies, and agrees with the summary") {
  for (const char* scheduler : {"inorder", "dag"}) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      ScratchDir dir;
      const fs::path file = dir.path / "run.json";
      {
        auto rt = make_runtime(RuntimeChoice{scheduler, "whole"}, "\"host\"", trace_table(file));
        plexus::Queue q = rt->queue();
        plexus::Buffer<int> a(plexus::Range{64});
        q.submit([&](plexus::Handler& h) {  // writes a
          auto out = a.access(h, plexus::discard_write);
          h.host_task([=] {
            for (std::size_t i = 0; i < 64; ++i) out[i] = static_cast<int>(i);
          });
        });
        q.submit([&](plexus::Handler& h) {  // reads a: depends on the first
          auto in = a.access(h, plexus::read);
          h.host_task([=] { (void)in[0]; });
        });
        auto failing = rt->host_task([] { throw std::runtime_error("planned failure"); });
        rt->host_task([] {}, {failing});  // fails with its dependency
        std::vector<int> result(64);
        a.copy_to(result.data());  // a host access: a task too
        CHECK(result[63] == 63);
        rt->wait();
      }
      const auto summary = read_json(dir.path / "run.summary.json");
      const auto trace = read_json(file);
      CHECK(summary.at("scheduler").as_string() == scheduler);
      std::map<std::int64_t, boost::json::object> tasks;  // by id
      std::size_t flows = 0;
      double latest_end = 0;
      for (const auto& value : trace.at("traceEvents").as_array()) {
        const auto& event = value.as_object();
        if (event.at("ph").as_string() == "s") ++flows;
        if (event.at("ph").as_string() != "X" || event.at("cat").as_string() != "task") continue;
        const auto& args = event.at("args").as_object();
        tasks[args.at("id").as_int64()] = args;
        latest_end = std::max(
            latest_end, event.at("ts").to_number<double>() + event.at("dur").to_number<double>());
      }
      REQUIRE(tasks.size() == 5);
      CHECK(summary.at("tasks").to_number<double>() == 5);
      CHECK(summary.at("failed_tasks").to_number<double>() == 2);
      CHECK(summary.at("makespan_us").to_number<double>() == Approx(latest_end).margin(0.01));
      CHECK(summary.at("dependencies").to_number<double>() == static_cast<double>(flows));
      // Each task's recorded dependencies are earlier tasks that ended before it started.
      std::size_t failed = 0, with_dependencies = 0;
      for (const auto& [id, args] : tasks) {
        failed += args.at("status").as_string() == "failed";
        const auto& dependencies = args.at("dependencies").as_array();
        with_dependencies += !dependencies.empty();
        for (const auto& dependency : dependencies) {
          const auto& earlier = tasks.at(dependency.as_int64());
          CHECK(earlier.at("end_us").to_number<double>() <=
                args.at("start_us").to_number<double>() + 0.01);
        }
        CHECK(args.at("submit_us").to_number<double>() <=
              args.at("ready_us").to_number<double>() + 0.01);
        CHECK(args.at("device").as_string() == "host");  // host tasks and the host access
      }
      CHECK(failed == 2);
      // dag keeps the conflict and the explicit dependency (inorder runs tasks at submission,
      // so their dependencies are done before they are recorded and may be dropped).
      if (std::string(scheduler) == "dag") CHECK(with_dependencies >= 2);
    }
  }
}

TEST_CASE("tracing is off without [trace] file, and one runtime traces at a time") {
  ScratchDir dir;
  {
    auto untraced = make_runtime(RuntimeChoice{"inorder", "whole"}, "\"host\"");
    untraced->host_task([] {});
    untraced->wait();
  }
  CHECK(fs::is_empty(dir.path));
  {
    auto first = make_runtime(RuntimeChoice{"dag", "whole"}, "\"host\"",
                              trace_table(dir.path / "first.json"));
    auto second = make_runtime(RuntimeChoice{"dag", "whole"}, "\"host\"",
                               trace_table(dir.path / "second.json"));
    first->host_task([] {});
    second->host_task([] {});
    first->wait();
    second->wait();
  }
  CHECK(fs::exists(dir.path / "first.json"));
  CHECK(fs::exists(dir.path / "first.summary.json"));
  CHECK_FALSE(fs::exists(dir.path / "second.json"));
  // The tracer is process-wide (docs/tracing.md, limits): the second runtime's task, run
  // while the first traces, is in the first one's trace.
  CHECK(read_json(dir.path / "first.summary.json").at("tasks").to_number<double>() == 2);
}

// The tracer is process-wide: a task another runtime runs while one traces is recorded in
// that trace. When the tracing runtime shuts down while such a task still runs, it lets the
// task finish its record before it writes and frees the trace (before, the task's op was
// written into the freed record: a heap use after free under ASan).
TEST_CASE("a traced runtime's shutdown waits for another runtime's task in its trace") {
  ScratchDir dir;
  auto other = make_runtime(RuntimeChoice{"dag", "whole"}, "\"host\"");
  auto traced = make_runtime(RuntimeChoice{"dag", "whole"}, "\"host\"",
                             trace_table(dir.path / "traced.json"));
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> started{false};
  plexus::Queue q = other->queue();
  q.submit([&](plexus::Handler& h) {
    h.native_task("blocked", {{"host", [&started, released](plexus::InteropHandle&) {
                                 started = true;
                                 released.wait();
                               }}});
  });
  while (!started) std::this_thread::yield();
  constexpr auto hold = std::chrono::milliseconds(300);
  std::thread releaser([&] {
    std::this_thread::sleep_for(hold);
    release.set_value();
  });
  const auto before = std::chrono::steady_clock::now();
  traced.reset();  // the blocked task's record is the trace's: shutdown waits for it
  const auto shutdown = std::chrono::steady_clock::now() - before;
  releaser.join();
  other->wait();
  CHECK(shutdown >= hold - std::chrono::milliseconds(50));
  const auto summary = read_json(dir.path / "traced.summary.json");
  CHECK(summary.at("tasks").to_number<double>() == 1);
}

TEST_CASE("the [trace] table is checked and trace.file can be set") {
  plexus::test::require_error(
      [] { plexus::Config::from_string("[trace]\nfile = 3\n", "bad.toml"); },
      plexus::error_category::config, "'trace.file'");
  plexus::test::require_error(
      [] { plexus::Config::from_string("[trace]\nout = \"x\"\n", "bad.toml"); },
      plexus::error_category::config, "unknown key 'trace.out'");
  auto config = plexus::Config::from_string("", "empty.toml");
  CHECK(config.trace_file().empty());
  config.set("trace.file", "t.json", "test");
  // A config read from a string has no file: relative paths are the working directory's.
  CHECK(config.trace_file() == (std::filesystem::current_path() / "t.json").string());
}

TEST_CASE("copies and launches on PoCL are timed on the device's clock") {
  ScratchDir dir;
  const fs::path file = dir.path / "run.json";
  std::size_t kernels = 0;
  {
    auto rt = make_runtime(RuntimeChoice{"inorder", "whole"}, "\"opencl\"", trace_table(file));
    plexus::Device* device = plexus::test::device_with_own_memory(*rt);
    if (!device) {
      WARN("skipped: no OpenCL device with its own memory (PoCL) here");
      return;
    }
    const std::size_t n = 1024;
    std::vector<int> values(n, 1);
    plexus::Buffer<int> buffer(values.data(), n);
    auto bundle = rt->build("__kernel void twice(__global int* x) { x[get_global_id(0)] *= 2; }");
    plexus::Queue q = rt->queue(*device);
    for (int i = 0; i < 3; ++i, ++kernels)
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"), plexus::Range{n},
                       buffer.access(h, plexus::read_write));
      });
    CHECK(buffer.host_access(plexus::read)[n - 1] == 8);
    rt->wait();
  }
  const auto trace = read_json(file);
  std::map<std::int64_t, std::pair<double, double>> tasks;  // id -> [ts, ts + dur]
  std::vector<boost::json::object> ops;
  for (const auto& value : trace.at("traceEvents").as_array()) {
    const auto& event = value.as_object();
    if (event.at("ph").as_string() != "X") continue;
    const double ts = event.at("ts").to_number<double>();
    const double end = ts + event.at("dur").to_number<double>();
    const auto& category = event.at("cat").as_string();
    if (category == "task")
      tasks[event.at("args").at("id").as_int64()] = {ts, end};
    else if (category == "copy" || category == "launch")
      ops.push_back(event);
  }
  std::size_t device_launches = 0, device_copies = 0;
  for (const auto& op : ops) {
    const auto& args = op.at("args").as_object();
    const bool device_clock = args.at("clock").as_string() == "device";
    device_launches += device_clock && op.at("cat").as_string() == "launch";
    device_copies += device_clock && op.at("cat").as_string() == "copy";
    // Device times are clamped into their task (docs/tracing.md).
    const auto [task_start, task_end] = tasks.at(args.at("task").as_int64());
    const double ts = op.at("ts").to_number<double>();
    CHECK(ts >= task_start - 0.01);
    CHECK(ts + op.at("dur").to_number<double>() <= task_end + 0.01);
  }
  CHECK(device_launches == kernels);
  CHECK(device_copies >= 2);  // the buffer to the device and back
  const auto summary = read_json(dir.path / "run.summary.json");
  CHECK(summary.at("device_clock_ops").to_number<double>() ==
        static_cast<double>(device_launches + device_copies));
  // The buffer's memory on the device: one allocation of its size, on the device's process,
  // and the counter of the bytes the device's buffers hold.
  const auto names = process_names(trace);
  std::size_t allocations = 0;
  for (const auto& span : slices(trace, "runtime")) {
    if (span.at("name").as_string() != "allocate") continue;
    ++allocations;
    CHECK(number_at(span.at("args").as_object(), "bytes") == 1024 * sizeof(int));
    CHECK(names.at(span.at("pid").as_int64()) != "compiler");
  }
  CHECK(allocations == 1);
  CHECK(summary.at("runtime").at("allocated_bytes").to_number<double>() == 1024 * sizeof(int));
  bool counted = false;
  for (const auto& value : trace.at("traceEvents").as_array()) {
    const auto& event = value.as_object();
    counted = counted || (event.at("ph").as_string() == "C" &&
                          number_at(event.at("args").as_object(), "bytes") == 1024 * sizeof(int));
  }
  CHECK(counted);
}

// The tracer also records the tasks of other runtimes (one traces at a time). A device time
// is read when the trace is written: from a runtime destroyed before the traced one, whose
// device and backend plugin are gone by then, it must have been read at that runtime's
// shutdown (found with the CUDA backend, whose timing called into its destroyed device).
TEST_CASE("device times of a runtime destroyed while another traces stay in the trace") {
  for (const char* backend : {"opencl", "cuda"}) {
    DYNAMIC_SECTION("backend " << backend) {
      ScratchDir dir;
      const fs::path file = dir.path / "run.json";
      std::size_t kernels = 0;
      {
        auto traced = make_runtime(RuntimeChoice{"inorder", "whole"}, "\"host\"", trace_table(file));
        traced->host_task([] {});
        {
          auto other = make_runtime(RuntimeChoice{"dag", "whole"}, "\"" + std::string(backend) + "\"");
          plexus::Device* device = plexus::test::device_with_own_memory(*other);
          if (!device) {
            WARN("skipped: no " << backend << " device with its own memory here");
            continue;
          }
          const std::size_t n = 256;
          std::vector<int> values(n, 1);
          plexus::Buffer<int> buffer(values.data(), n);
          auto bundle = other->build("__kernel void inc(__global int* x) { x[get_global_id(0)] += 1; }");
          plexus::Queue q = other->queue(*device);
          for (int i = 0; i < 3; ++i, ++kernels)
            q.submit([&](plexus::Handler& h) {
              h.parallel_for(bundle.kernel("inc"), plexus::Range{n}, buffer.access(h, plexus::read_write));
            });
          CHECK(buffer.host_access(plexus::read)[n - 1] == 4);
        }  // its devices, queues and (no other runtime using it) backend plugin go here
        traced->wait();
      }
      const auto summary = read_json(dir.path / "run.summary.json");
      // The other runtime's launches and copies (to the device and back) on the device clock.
      CHECK(summary.at("device_clock_ops").to_number<double>() >= static_cast<double>(kernels + 2));
      std::size_t launches = 0;
      for (const auto& op : slices(read_json(file), "launch"))
        launches += op.at("args").at("clock").as_string() == "device";
      CHECK(launches == kernels);
    }
  }
  // On every machine: the timed test backend, whose timings are read through its device and
  // whose plugin nothing keeps loaded (opencl pins its own library, so reading a PoCL timing
  // late worked by chance; without the settling this section crashes).
  SECTION("backend timed (test plugin)") {
    ScratchDir dir;
    const fs::path file = dir.path / "run.json";
    const std::string plugins = plexus::test::test_plugin_dir("timed").string();
    {
      auto traced = make_runtime(RuntimeChoice{"inorder", "whole"}, "\"host\"", trace_table(file));
      {
        auto other = make_runtime(RuntimeChoice{"dag", "whole"}, "\"timed\"",
                                  "[plugins]\npaths = [\"" + plugins + "\"]\n");
        REQUIRE(other->devices().size() == 1);
        plexus::Queue q = other->queue(*other->devices().front());
        std::vector<int> values(64, 7), back(64, 0);
        void* on_device = plexus::malloc_device(values.size() * sizeof(int), q);
        q.memcpy(on_device, values.data(), values.size() * sizeof(int)).wait();
        q.memcpy(back.data(), on_device, values.size() * sizeof(int)).wait();
        plexus::free(on_device, q);
        CHECK(back == values);
      }  // its device, queues and plugin go here
      traced->wait();
    }
    std::size_t timed_copies = 0;
    for (const auto& op : slices(read_json(file), "copy"))
      timed_copies += op.at("args").at("clock").as_string() == "device";
    CHECK(timed_copies == 2);  // both memcpys, their times read from the device in time
  }
}

// Issue 21 item 9: the buffers a program still holds are freed when its runtime shuts down;
// the trace was written before, so their `free` was missing.
TEST_CASE("buffers freed at shutdown are in the trace, with those freed before") {
  ScratchDir dir;
  const fs::path file = dir.path / "run.json";
  const std::size_t n = 256;
  std::vector<int> values(n, 1), others(2 * n, 1);
  plexus::Buffer<int> outlives(values.data(), n);  // held past its runtime's shutdown
  {
    auto rt = make_runtime(RuntimeChoice{"inorder", "whole"}, "\"opencl\"", trace_table(file));
    plexus::Device* device = plexus::test::device_with_own_memory(*rt);
    if (!device) {
      WARN("skipped: no OpenCL device with its own memory (PoCL) here");
      return;
    }
    auto bundle = rt->build("__kernel void twice(__global int* x) { x[get_global_id(0)] *= 2; }");
    plexus::Queue q = rt->queue(*device);
    plexus::Buffer<int> inner(others.data(), 2 * n);  // freed before the runtime
    for (plexus::Buffer<int>* buffer : {&outlives, &inner})
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"), plexus::Range{buffer->size()},
                       buffer->access(h, plexus::read_write));
      });
    rt->wait();
  }
  const auto trace = read_json(file);
  std::vector<double> allocated, freed;  // bytes
  double last_task_end = 0, last_free = 0;
  for (const auto& task : slices(trace, "task"))
    last_task_end = std::max(last_task_end, number_at(task, "ts") + number_at(task, "dur"));
  for (const auto& span : slices(trace, "runtime")) {
    const double bytes = number_at(span.at("args").as_object(), "bytes");
    if (span.at("name").as_string() == "allocate") allocated.push_back(bytes);
    if (span.at("name").as_string() == "free") {
      freed.push_back(bytes);
      last_free = std::max(last_free, number_at(span, "ts"));
    }
  }
  std::sort(allocated.begin(), allocated.end());
  std::sort(freed.begin(), freed.end());
  const std::vector<double> both = {n * sizeof(int), 2 * n * sizeof(int)};
  CHECK(allocated == both);
  CHECK(freed == both);  // before the fix: only the inner buffer's
  CHECK(last_free >= last_task_end);
  const auto summary = read_json(dir.path / "run.summary.json");
  CHECK(summary.at("runtime").at("frees").to_number<double>() == 2);
  // The device's memory counter ends at zero.
  double last_counter_ts = -1, last_counter = -1;
  for (const auto& value : trace.at("traceEvents").as_array()) {
    const auto& event = value.as_object();
    if (event.at("ph").as_string() != "C" || number_at(event, "ts") < last_counter_ts) continue;
    last_counter_ts = number_at(event, "ts");
    last_counter = number_at(event.at("args").as_object(), "bytes");
  }
  CHECK(last_counter == 0);
}

TEST_CASE("the trace shows compiles, module loads and launch ranges, and why tasks waited") {
  ScratchDir dir;
  const fs::path file = dir.path / "run.json";
  {
    // One worker: a task ready while another runs waits for the queue.
    auto rt = make_runtime(RuntimeChoice{"dag", "whole"}, "\"host\"",
                           trace_table(file) + "[scheduler.dag]\nworkers = 1\n");
    const std::size_t n = 256;
    std::vector<int> values(n, 1);
    plexus::Buffer<int> buffer(values.data(), n);
    auto bundle = rt->build("__kernel void twice(__global int* x) { x[get_global_id(0)] *= 2; }");
    plexus::Queue q = rt->queue();
    for (int i = 0; i < 2; ++i)
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("twice"),
                       plexus::nd_range(plexus::Range{n}, plexus::Range{64}),
                       buffer.access(h, plexus::read_write));
      });
    CHECK(buffer.host_access(plexus::read)[n - 1] == 4);
    // Two independent host tasks: the second is ready at once, but the one worker runs
    // the first for 20 ms from the second's submission (so the second waits 20 ms however
    // late this thread submits it; the bound only keeps a mistake from hanging the test).
    std::atomic<bool> second_submitted{false};
    rt->host_task([&second_submitted] {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
      while (!second_submitted.load() && std::chrono::steady_clock::now() < give_up)
        std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    });
    rt->host_task([] {});
    second_submitted = true;
    rt->wait();
  }
  const auto trace = read_json(file);
  const auto summary = read_json(dir.path / "run.summary.json");
  const auto names = process_names(trace);

  // The compile (no device: the "compiler" process) and the module load on the device.
  std::size_t compiles = 0, loads = 0;
  for (const auto& span : slices(trace, "runtime")) {
    const auto& name = span.at("name").as_string();
    const std::string process = names.at(span.at("pid").as_int64());
    if (name == "compile") {
      ++compiles;
      CHECK(process == "compiler");
      CHECK(span.at("args").at("detail").as_string() != "");
      CHECK(number_at(span, "dur") > 0);
    } else if (name == "load module") {
      ++loads;
      CHECK(process != "compiler");
    }
  }
  CHECK(compiles >= 1);
  CHECK(loads == 1);
  CHECK(summary.at("runtime").at("compiles").to_number<double>() == static_cast<double>(compiles));
  CHECK(summary.at("runtime").at("module_loads").to_number<double>() == 1);

  // Each launch names its nd-range.
  const auto launches = slices(trace, "launch");
  REQUIRE(launches.size() == 2);
  for (const auto& launch : launches) {
    const auto& args = launch.at("args").as_object();
    CHECK(boost::json::serialize(args.at("global")) == "[256]");
    CHECK(boost::json::serialize(args.at("local")) == "[64]");
    CHECK(boost::json::serialize(args.at("offset")) == "[0]");
  }

  // Why each task waited while ready: its queue busy with an earlier task, and the rest the
  // scheduler's (drawn as a "wait" slice right before it).
  std::map<std::int64_t, boost::json::object> tasks;
  for (const auto& task : slices(trace, "task")) tasks[task.at("args").at("id").as_int64()] = task;
  double waited = 0, queue_busy = 0, longest_queue_wait = 0;
  for (const auto& [id, task] : tasks) {
    const auto& args = task.at("args").as_object();
    const double ready = number_at(args, "ready_us"), start = number_at(args, "start_us");
    CHECK(number_at(args, "waited_us") == Approx(start - ready).margin(0.01));
    CHECK(number_at(args, "wait_queue_busy_us") + number_at(args, "wait_scheduler_us") ==
          Approx(number_at(args, "waited_us")).margin(0.01));
    waited += number_at(args, "waited_us");
    queue_busy += number_at(args, "wait_queue_busy_us");
    if (!args.at("queue_busy_with").is_null()) {
      const auto& busy = tasks.at(args.at("queue_busy_with").as_int64());
      CHECK(busy.at("tid") == task.at("tid"));
      CHECK(busy.at("pid") == task.at("pid"));
      CHECK(number_at(busy.at("args").as_object(), "end_us") > ready);
      longest_queue_wait = std::max(longest_queue_wait, number_at(args, "wait_queue_busy_us"));
    } else {
      CHECK(number_at(args, "wait_queue_busy_us") == 0);
    }
  }
  CHECK(longest_queue_wait >= 15000);  // the second host task, behind the 20 ms one
  CHECK(number_at(summary, "waited_us") == Approx(waited).margin(0.1));
  CHECK(number_at(summary, "wait_queue_busy_us") == Approx(queue_busy).margin(0.1));
  for (const auto& wait : slices(trace, "wait")) {
    const auto& task = tasks.at(wait.at("args").at("task").as_int64()).at("args").as_object();
    CHECK(number_at(wait, "ts") >= number_at(task, "ready_us") - 0.01);
    CHECK(number_at(wait, "ts") + number_at(wait, "dur") ==
          Approx(number_at(task, "start_us")).margin(0.01));
  }
}

TEST_CASE("a replayed command graph shows in the trace with the kernels inside it") {
  // Host, and PoCL with cl_khr_command_buffer: a device graph, one launch with its nodes
  // inside. PoCL without it (PLEXUS_OPENCL_COMMAND_BUFFERS=0): the kernels launched one by
  // one inside the graph's task, each named by its own kernel.
  for (const char* backends : {"\"host\"", "\"opencl\""}) {
    DYNAMIC_SECTION("backends " << backends) {
      ScratchDir dir;
      const fs::path file = dir.path / "graph.json";
      const int replays = 3;
      {
        auto rt = make_runtime(RuntimeChoice{"dag", "whole"}, backends, trace_table(file));
        if (rt->devices().empty()) {
          WARN("no " << backends << " device (PoCL missing): skipped");
          return;
        }
        plexus::Queue q = rt->queue();
        auto bundle = rt->build(plexus::test::graph_test_source);
        plexus::Buffer<float> x(std::vector<float>(64, 1.0f).data(), 64), y(64);
        plexus::CommandGraph graph;
        graph.begin_recording(q);
        q.submit([&](plexus::Handler& h) {
          h.parallel_for(bundle.kernel("axpb"), plexus::Range{64},
                         x.access(h, plexus::read_write), 2.0f, 1.0f);
        });
        q.submit([&](plexus::Handler& h) {
          h.parallel_for(bundle.kernel("accumulate"), plexus::Range{32},
                         x.access(h, plexus::read), y.access(h, plexus::discard_write));
        });
        graph.end_recording();
        plexus::ExecutableGraph exec = graph.finalize();
        for (int i = 0; i < replays; ++i) q.submit(exec);
        q.wait();
      }
      const auto trace = read_json(file);
      const auto summary = read_json(dir.path / "graph.summary.json");
      std::vector<boost::json::object> graph_tasks;
      for (const auto& task : slices(trace, "task"))
        if (std::string(task.at("name").as_string().c_str()).starts_with("graph of 2 kernels"))
          graph_tasks.push_back(task);
      REQUIRE(graph_tasks.size() == replays);
      const auto nodes = slices(trace, "graph_node");
      const auto launches = slices(trace, "launch");
      const bool device_graph = !nodes.empty();
      if (std::string(backends) == "\"host\"") CHECK(device_graph);
      for (const auto& task : graph_tasks) {
        const auto id = task.at("args").at("id").as_int64();
        std::vector<std::string> inside;  // the kernels inside it, in order
        const auto& of_task = device_graph ? nodes : launches;
        for (const auto& slice : of_task) {
          if (slice.at("args").at("task").as_int64() != id) continue;
          inside.push_back(slice.at("name").as_string().c_str());
          CHECK(number_at(slice, "ts") >= number_at(task, "ts") - 0.01);
          CHECK(number_at(slice, "ts") + number_at(slice, "dur") <=
                number_at(task, "ts") + number_at(task, "dur") + 0.01);
        }
        if (device_graph) {
          CHECK(inside == std::vector<std::string>{"kernel axpb", "kernel accumulate"});
          CHECK(std::any_of(launches.begin(), launches.end(), [&](const auto& launch) {
            return launch.at("args").at("task").as_int64() == id &&
                   std::string(launch.at("name").as_string().c_str()).find("replayed") !=
                       std::string::npos;
          }));
        } else {
          CHECK(inside == std::vector<std::string>{"launch axpb", "launch accumulate"});
        }
      }
      CHECK(number_at(summary, "graph_nodes") == (device_graph ? 2 * replays : 0));
      if (device_graph) {  // the second node's range is its own
        CHECK(nodes[1].at("args").at("global").as_array().at(0).to_number<double>() == 32);
      }
    }
  }
}
