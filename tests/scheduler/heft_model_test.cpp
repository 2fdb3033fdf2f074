// scheduler/heft's cost model, placement rule, per-slot device load, tasks_per_device option
// and history file, compiled from the component's sources (they are internal to the plugin):
// decisions on given estimates, running means, "auto" by device type, the JSON round trip
// and every way a history file can be broken.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cost_model.hpp"
#include "device_choice.hpp"
#include "history_file.hpp"
#include "lane_load.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "tasks_per_device.hpp"
#include "test_support.hpp"

using namespace plexus::heft;

TEST_CASE("heft measures each device once, then goes by the prior until all are measured") {
  std::size_t counter = 0;
  std::vector<Candidate> candidates(3);
  candidates[1].execution = 0.001;  // one measured, two not
  // Equal priors: each unmeasured device gets one task to measure, then round-robin.
  std::vector<std::size_t> picks;
  for (int i = 0; i < 6; ++i) {
    const Choice choice = choose_device(candidates, counter);
    CHECK_FALSE(choice.by_model);
    if (choice.explores) {
      CHECK_FALSE(candidates[choice.index].execution.has_value());
      candidates[choice.index].explored = true;
    }
    picks.push_back(choice.index);
  }
  CHECK(picks == std::vector<std::size_t>{0, 2, 0, 1, 2, 0});
  // A GPU (132 compute units) and a CPU (16): after measuring, the GPU gets the rest;
  // priors within a factor of 2 are equal (two shares of one CPU): round-robin.
  std::vector<Candidate> mixed(2);
  mixed[0].speed = 16;
  mixed[1].speed = 132;
  std::vector<std::size_t> mixed_picks;
  for (int i = 0; i < 5; ++i) {
    const Choice choice = choose_device(mixed, counter);
    if (choice.explores) mixed[choice.index].explored = true;
    mixed_picks.push_back(choice.index);
  }
  CHECK(mixed_picks == std::vector<std::size_t>{0, 1, 1, 1, 1});
  mixed[0].speed = 100;
  std::size_t fresh = 0;
  CHECK(choose_device(mixed, fresh).index == 0);
  CHECK(choose_device(mixed, fresh).index == 1);

  // All measured: the fastest device wins while it is free...
  candidates[0].execution = 0.004;
  candidates[2].execution = 0.002;
  Choice choice = choose_device(candidates, counter);
  CHECK(choice.by_model);
  CHECK(choice.index == 1);
  CHECK(choice.finish == Approx(0.001));
  // ...but not when it is busy until later than a slower one would take.
  candidates[1].available = 0.010;
  choice = choose_device(candidates, counter);
  CHECK(choice.index == 2);
  // The transfer a placement needs counts: moving data to device 2 costs more than waiting.
  candidates[2].transfer = 0.020;
  choice = choose_device(candidates, counter);
  CHECK(choice.index == 0);
  CHECK(choice.finish == Approx(0.004));
  // Dependencies finishing late delay every device alike: start = max(ready, available).
  for (auto& candidate : candidates) candidate.ready = 1.0;
  choice = choose_device(candidates, counter);
  CHECK(choice.index == 1);
  CHECK(choice.start == Approx(1.0));
  CHECK(choice.finish == Approx(1.001));
}

TEST_CASE("heft measures a fast device again when its first run alone was slow") {
  // The H200 case: a cuSOLVER potrf tile's first run on the GPU took 62 ms (handle and
  // workspace), the CPU's 30 ms, and every later potrf went to the CPU for good.
  std::vector<Candidate> candidates(2);
  candidates[0].speed = 16;  // CPU: measured many times
  candidates[0].execution = 0.030;
  candidates[1].speed = 132;  // GPU: its first run alone
  candidates[1].execution = 0.062;
  candidates[1].provisional = true;
  std::size_t counter = 0;
  CHECK(measurement_target(candidates) == std::optional<std::size_t>(1));
  Choice choice = choose_device(candidates, counter);
  CHECK(choice.explores);
  CHECK(choice.index == 1);
  // Sent twice in this run (its first run and one more), it goes by the model again.
  candidates[1].explored = 2;
  CHECK_FALSE(measurement_target(candidates));
  choice = choose_device(candidates, counter);
  CHECK(choice.by_model);
  CHECK(choice.index == 0);
  // The model picks the GPU anyway: nothing to measure again.
  candidates[1].explored = 0;
  candidates[1].execution = 0.010;
  CHECK_FALSE(measurement_target(candidates));
  // A slow device's provisional figure is not measured again: the CPU's 230 ms gemm stays.
  candidates[0].execution = 0.230;
  candidates[0].provisional = true;
  candidates[1].execution = 0.001;
  candidates[1].provisional = false;
  CHECK_FALSE(measurement_target(candidates));
  choice = choose_device(candidates, counter);
  CHECK(choice.by_model);
  CHECK(choice.index == 1);
  // Comparable devices (priors within 2x, two shares of one CPU) are not measured again:
  // the model decides between them.
  candidates[0].speed = 100;
  candidates[1].speed = 132;
  candidates[1].execution = 0.500;
  candidates[1].provisional = true;
  CHECK_FALSE(measurement_target(candidates));
  // Unmeasured and not yet sent comes first, whatever the priors.
  candidates[0].execution.reset();
  CHECK(measurement_target(candidates) == std::optional<std::size_t>(0));
}

TEST_CASE("heft kernel keys bucket the global size by powers of two") {
  CHECK(kernel_key("kernel gemm", 16384) == "kernel gemm [16384]");
  CHECK(kernel_key("kernel gemm", 20000) == "kernel gemm [16384]");
  CHECK(kernel_key("kernel gemm", 32767) == "kernel gemm [16384]");
  CHECK(kernel_key("kernel gemm", 32768) == "kernel gemm [32768]");
  CHECK(kernel_key("host access", 0) == "host access [0]");
}

TEST_CASE("heft cost model: running means per (kernel, device), bandwidth from large copies") {
  CostModel model(1e9);
  CHECK_FALSE(model.execution_seconds("k [64]", "cpu"));
  CHECK(model.execution("k [64]", "cpu").samples == 0);
  // The first run (a module load, a library's handles) is provisional: the second replaces
  // it, counted as two samples; later ones average.
  model.record_execution("k [64]", "cpu", 0.062);
  CHECK(model.execution("k [64]", "cpu").samples == 1);
  CHECK(*model.execution_seconds("k [64]", "cpu") == Approx(0.062));
  model.record_execution("k [64]", "cpu", 0.002);
  CHECK(model.execution("k [64]", "cpu").samples == 2);
  CHECK(*model.execution_seconds("k [64]", "cpu") == Approx(0.002));
  model.record_execution("k [64]", "cpu", 0.005);
  REQUIRE(model.execution_seconds("k [64]", "cpu"));
  CHECK(*model.execution_seconds("k [64]", "cpu") == Approx(0.003));
  CHECK_FALSE(model.execution_seconds("k [64]", "gpu"));
  CHECK_FALSE(model.execution_seconds("k [128]", "cpu"));

  CHECK(model.bandwidth("gpu") == Approx(1e9));  // the configured default
  model.record_transfer("gpu", 100, 1e-3);       // small: latency, ignored
  CHECK(model.bandwidth("gpu") == Approx(1e9));
  model.record_transfer("gpu", 4 << 20, 2e-3);  // 4 MiB in 2 ms
  CHECK(model.bandwidth("gpu") == Approx((4 << 20) / 2e-3));
  CHECK(model.bandwidth("cpu") == Approx(1e9));

  // The weight of old samples is capped: a machine that got slower is followed.
  for (int i = 0; i < 200; ++i) model.record_execution("k [64]", "cpu", 0.010);
  CHECK(*model.execution_seconds("k [64]", "cpu") == Approx(0.010).epsilon(0.01));

  // merge() takes the entries with more samples.
  CostTable seed;
  seed["gpu"].kernels["k [64]"] = {0.5, 3};
  seed["cpu"].kernels["k [64]"] = {0.5, 1};
  model.merge(seed);
  CHECK(*model.execution_seconds("k [64]", "gpu") == Approx(0.5));
  CHECK(*model.execution_seconds("k [64]", "cpu") == Approx(0.010).epsilon(0.01));
}

TEST_CASE("heft cost model: bandwidth per pair of locations, falling back to the device's") {
  CostModel model(1e9);
  CHECK(model.bandwidth("host", "gpu") == Approx(1e9));  // nothing measured: the default
  model.record_transfer("gpu", 8 << 20, 4e-3);           // into the gpu from anywhere
  CHECK(model.bandwidth("host", "gpu") == Approx((8 << 20) / 4e-3));
  model.record_transfer("host", "gpu", 8 << 20, 1e-3);   // host -> gpu: 8 MiB in 1 ms
  model.record_transfer("gpu #2", "gpu", 8 << 20, 0.5e-3);  // a peer: 8 MiB in 0.5 ms
  model.record_transfer("cpu", "gpu", 100, 1.0);          // small: latency, ignored
  CHECK(model.bandwidth("host", "gpu") == Approx((8 << 20) / 1e-3));
  CHECK(model.bandwidth("gpu #2", "gpu") == Approx((8 << 20) / 0.5e-3));
  CHECK(model.bandwidth("cpu", "gpu") == Approx((8 << 20) / 4e-3));  // unmeasured pair
  CHECK(model.bandwidth("gpu", "cpu") == Approx(1e9));               // the other direction
  model.record_transfer("gpu", "cpu", 8 << 20, 8e-3);                 // device -> host device
  CHECK(model.bandwidth("gpu", "cpu") == Approx((8 << 20) / 8e-3));

  CostTable seed;  // merge() takes the pair entries with more samples
  seed["gpu"].bandwidth_from["host"] = {1.0, 5};
  seed["gpu"].bandwidth_from["cpu"] = {2.0, 1};
  model.merge(seed);
  CHECK(model.bandwidth("host", "gpu") == Approx(1.0));
  CHECK(model.bandwidth("cpu", "gpu") == Approx(2.0));
  CHECK(model.bandwidth("gpu #2", "gpu") == Approx((8 << 20) / 0.5e-3));
}

TEST_CASE("heft history file: round trip, first run, and clear errors") {
  plexus::test::TempDir dir;
  const std::string path = (dir.path() / "history.json").string();
  CHECK(load_history(path).empty());  // no file yet: a first run

  CostTable table;
  table["Intel CPU (cores 0-0)"].kernels["kernel gemm [16384]"] = {0.00125, 7};
  table["Intel CPU (cores 0-0)"].kernels["kernel potrf [128]"] = {0.0003, 2};
  table["pthread-cpu"].bandwidth = {2.5e9, 4};
  table["pthread-cpu"].bandwidth_from["host"] = {3.5e9, 6};
  table["pthread-cpu"].bandwidth_from["NVIDIA H100"] = {1.5e9, 2};
  table["pthread-cpu"].kernels["kernel gemm [16384]"] = {0.0009, 5};
  save_history(path, table);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  const CostTable loaded = load_history(path);
  REQUIRE(loaded.size() == 2);
  const auto& cpu = loaded.at("Intel CPU (cores 0-0)");
  CHECK(cpu.bandwidth.samples == 0);
  CHECK(cpu.kernels.at("kernel gemm [16384]").mean == Approx(0.00125));
  CHECK(cpu.kernels.at("kernel gemm [16384]").samples == 7);
  CHECK(cpu.kernels.at("kernel potrf [128]").samples == 2);
  CHECK(loaded.at("pthread-cpu").bandwidth.mean == Approx(2.5e9));
  CHECK(loaded.at("pthread-cpu").bandwidth.samples == 4);
  CHECK(cpu.bandwidth_from.empty());
  CHECK(loaded.at("pthread-cpu").bandwidth_from.at("host").mean == Approx(3.5e9));
  CHECK(loaded.at("pthread-cpu").bandwidth_from.at("host").samples == 6);
  CHECK(loaded.at("pthread-cpu").bandwidth_from.at("NVIDIA H100").mean == Approx(1.5e9));
  CHECK(loaded.at("pthread-cpu").kernels.at("kernel gemm [16384]").mean == Approx(0.0009));

  const auto broken = [&](const std::string& text, const std::string& part) {
    const auto file = dir.write("broken.json", text).string();
    INFO(text);
    try {
      load_history(file);
      FAIL("a broken history file was accepted");
    } catch (const plexus::error& failure) {
      CHECK(failure.category() == plexus::error_category::config);
      CHECK_THAT(failure.what(),
                 Catch::Contains(file) && Catch::Contains(part) && Catch::Contains("delete it"));
    }
  };
  broken("{\"format\": \"plexus-heft-history\", \"version\": 1, \"devi", "not valid JSON");
  broken("", "not valid JSON");
  broken("[1, 2]", "the top level must be an object");
  broken("{\"format\": \"something else\", \"version\": 1, \"devices\": {}}", "\"format\"");
  broken("{\"format\": \"plexus-heft-history\", \"version\": 2, \"devices\": {}}", "\"version\"");
  broken("{\"format\": \"plexus-heft-history\", \"version\": 1}", "\"devices\" is missing");
  broken(
      "{\"format\": \"plexus-heft-history\", \"version\": 1, \"devices\": "
      "{\"cpu\": {\"kernels\": {\"k [1]\": {\"mean\": \"fast\", \"samples\": 1}}}}}",
      "devices[\"cpu\"].kernels[\"k [1]\"].mean must be a number");
  broken(
      "{\"format\": \"plexus-heft-history\", \"version\": 1, \"devices\": "
      "{\"cpu\": {\"kernels\": {\"k [1]\": {\"mean\": -1, \"samples\": 1}}}}}",
      ">= 0");
  broken(
      "{\"format\": \"plexus-heft-history\", \"version\": 1, \"devices\": "
      "{\"cpu\": {\"bandwidth\": {\"mean\": 1e9, \"samples\": 0}}}}",
      "devices[\"cpu\"].bandwidth.samples must be at least 1");
  broken(
      "{\"format\": \"plexus-heft-history\", \"version\": 1, \"devices\": "
      "{\"cpu\": {\"bandwidth_from\": {\"host\": {\"mean\": 1e9}}}}}",
      "devices[\"cpu\"].bandwidth_from[\"host\"].samples must be an integer");

  // Saving where no file can be written: an io error naming the path.
  const std::string nowhere = (dir.path() / "missing-dir" / "history.json").string();
  try {
    save_history(nowhere, table);
    FAIL("saving into a missing directory succeeded");
  } catch (const plexus::error& failure) {
    CHECK(failure.category() == plexus::error_category::io);
    CHECK_THAT(failure.what(), Catch::Contains("missing-dir"));
  }
}

namespace {

plexus::ComponentOptions heft_options(const std::string& table) {
  return plexus::Config::from_string("[scheduler]\nuse = \"heft\"\n[scheduler.heft]\n" + table,
                                     "heft-test.toml")
      .options_for(plexus::ComponentKind::scheduler, "heft");
}

plexus::DeviceInfo device_of(plexus::DeviceType type) {
  plexus::DeviceInfo info;
  info.name = std::string(plexus::to_string(type));
  info.type = type;
  return info;
}

}  // namespace

TEST_CASE("heft tasks_per_device: \"auto\" by device type, an integer for every device") {
  using plexus::DeviceType;
  const plexus::DeviceInfo gpu = device_of(DeviceType::gpu), cpu = device_of(DeviceType::cpu),
                           accelerator = device_of(DeviceType::accelerator),
                           other = device_of(DeviceType::other);
  for (const std::string& table : {std::string(""), std::string("tasks_per_device = \"auto\"\n")}) {
    INFO(table);
    const TasksPerDevice option = tasks_per_device_option(heft_options(table));
    CHECK(tasks_per_device_for(option, gpu) == 4);
    CHECK(tasks_per_device_for(option, accelerator) == 4);
    CHECK(tasks_per_device_for(option, cpu) == 1);
    CHECK(tasks_per_device_for(option, other) == 1);
  }
  for (const int count : {1, 3}) {
    const TasksPerDevice option =
        tasks_per_device_option(heft_options("tasks_per_device = " + std::to_string(count) + "\n"));
    for (const auto& info : {gpu, cpu, accelerator, other}) {
      CHECK(tasks_per_device_for(option, info) == static_cast<std::size_t>(count));
    }
  }
}

TEST_CASE("heft tasks_per_device: 0, negative, over 64, other strings and other types are config errors") {
  const auto refused = [](const std::string& value, const std::string& part) {
    INFO("tasks_per_device = " << value);
    try {
      tasks_per_device_option(heft_options("tasks_per_device = " + value + "\n"));
      FAIL("accepted");
    } catch (const plexus::error& e) {
      INFO(e.what());
      CHECK(e.category() == plexus::error_category::config);
      CHECK_THAT(e.what(), Catch::Contains(part));
      CHECK_THAT(e.what(), Catch::Contains("give \"auto\""));
    }
  };
  // Where: the value's file, line and column (options.error).
  refused("0", "heft-test.toml:4:20: option 'scheduler.heft.tasks_per_device' is 0");
  refused("-2", "heft-test.toml:4:20: option 'scheduler.heft.tasks_per_device' is -2");
  refused("\"many\"", "heft-test.toml:4:20: option 'scheduler.heft.tasks_per_device' is \"many\"");
  refused("\"AUTO\"", "option 'scheduler.heft.tasks_per_device' is \"AUTO\"");
  refused("65", "heft-test.toml:4:20: option 'scheduler.heft.tasks_per_device' is 65");
  refused("2.5", "heft-test.toml:4:20: option 'scheduler.heft.tasks_per_device' must be an "
                 "integer, found float");
  refused("true", "must be an integer, found boolean");
}

TEST_CASE("heft device load: k slots, a device is free when its first slot frees") {
  LaneLoad one(1);
  CHECK(one.earliest() == 0.0);
  CHECK(one.place(0.5) == 0);
  CHECK(one.place(0.25) == 0);
  CHECK(one.earliest() == Approx(0.75));  // one slot: the sum of the work placed
  one.finish(0, 0.5);
  CHECK(one.earliest() == Approx(0.25));

  LaneLoad four(4);
  CHECK(four.slots() == 4);
  std::vector<std::size_t> slots;
  for (int i = 0; i < 4; ++i) {
    CHECK(four.earliest() == 0.0);  // a free slot: the device can start at once
    slots.push_back(four.place(1.0));
  }
  CHECK(slots == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(four.earliest() == Approx(1.0));  // all four busy: free when the first one frees
  four.finish(2, 1.0);
  CHECK(four.earliest() == 0.0);
  CHECK(four.place(3.0) == 2);  // the slot that freed takes the next task
  four.finish(0, 1.0);
  CHECK(four.place(0.5) == 0);
  CHECK(four.earliest() == Approx(0.5));
  four.finish(0, 2.0);  // finished later than estimated: never below 0
  CHECK(four.earliest() == 0.0);
  CHECK(LaneLoad(0).slots() == 1);

  // With the placement rule: a device with four slots and 1 s of work on each of three
  // still starts a new task at once, so a 2 s task finishes there before a free device
  // that needs 3 s.
  std::vector<Candidate> candidates(2);
  LaneLoad busy(4);
  for (int i = 0; i < 3; ++i) busy.place(1.0);
  candidates[0].available = busy.earliest();
  candidates[0].execution = 2.0;
  candidates[1].execution = 3.0;
  std::size_t counter = 0;
  Choice choice = choose_device(candidates, counter);
  CHECK(choice.by_model);
  CHECK(choice.index == 0);
  CHECK(choice.finish == Approx(2.0));
  busy.place(1.0);  // the fourth slot taken: 1 s + 2 s there, the free device's 2.9 s wins
  candidates[0].available = busy.earliest();
  candidates[1].execution = 2.9;
  CHECK(choose_device(candidates, counter).index == 1);
}
