// A bounded fuzz of the numeric options of the backends, schedulers, memory models,
// compilers and caches: a Runtime made from a generated config with extreme values (limits of int64,
// one past each end of the documented range, both ends, NaN, infinities, wrong types) either
// works (a host task and a kernel run and give the right result) or throws
// plexus::error(config) naming the option, with its file:line:col. Never a crash, a
// std::terminate or a hang: each case has a deadline, and a case past it fails the test.
// The ranges below are the documented ones (docs/configuration.md): a value inside must work.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runtime_test_support.hpp"

namespace {

struct NumericOption {
  std::string table;   // "scheduler.dag"
  std::string key;     // "workers"
  std::string select;  // the TOML that selects the component the option belongs to
  double min, max;     // the documented range
  bool integer;        // an integer option (a float is a type error)
};

std::vector<NumericOption> numeric_options() {
  const std::string dag = "[scheduler]\nuse = \"dag\"\n", heft = "[scheduler]\nuse = \"heft\"\n";
  const std::string paged = "[memory]\nuse = \"paged\"\n";
  [[maybe_unused]] const std::string sqlite = "[cache]\nuse = \"sqlite\"\n";
  return {
      {"backends.host", "devices", "", 1, 256, true},
      {"backends.host", "threads", "", 0, 1024, true},
      {"scheduler.dag", "workers", dag, 0, 1024, true},
      {"scheduler.dag", "spin_us", dag, 0, 1e6, true},
      {"scheduler.dag", "queues_per_device", dag, 1, 64, true},
      {"scheduler.heft", "workers", heft, 0, 1024, true},
      {"scheduler.heft", "tasks_per_device", heft, 1, 64, true},
      {"scheduler.heft", "bandwidth_gbps", heft, 1e-3, 1e6, false},
      {"scheduler.heft", "calibration_wait_ms", heft, 0, 3.6e6, true},
      {"memory.paged", "page_size", paged, 1, 1 << 30, true},
      {"compiler.clang", "max_source_bytes", "", 1024, 1 << 30, true},
      {"compiler.clang", "max_tokens", "", 1024, 1 << 28, true},
      {"compiler.clang", "timeout_s", "", 0, 86400, true},
      {"compiler.clang", "max_errors", "", 1, 2147483647, true},
      {"cache.disk", "max_age_days", "", 0, 36500, true},
      {"cache.disk", "compression_level", "", 1, 22, true},
      {"cache.disk", "cleanup_interval_minutes", "", 0, 525600, true},
#ifdef PLEXUS_TEST_CACHE_SQLITE
      {"cache.sqlite", "max_age_days", sqlite, 0, 36500, true},
      {"cache.sqlite", "busy_timeout_ms", sqlite, 0, 3.6e6, true},
#endif
  };
}

// A TOML value and, when it is a number, its value.
struct Value {
  std::string toml;
  std::optional<double> number;
  bool is_integer = false;
};

std::vector<Value> extreme_values(const NumericOption& option, std::mt19937_64& random) {
  constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
  constexpr auto highest = std::numeric_limits<std::int64_t>::max();
  std::vector<Value> values;
  auto integer = [&](std::int64_t v) {
    values.push_back({std::to_string(v), static_cast<double>(v), true});
  };
  for (std::int64_t v : {lowest, std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, highest,
                         std::int64_t{1} << 31, std::int64_t{1} << 40}) {
    integer(v);
  }
  integer(static_cast<std::int64_t>(option.min));
  integer(static_cast<std::int64_t>(option.min) - 1);
  integer(static_cast<std::int64_t>(option.max) + 1);
  if (option.max <= 64) integer(static_cast<std::int64_t>(option.max));  // cheap to run
  // A random value in range and one above it.
  std::uniform_real_distribution<double> inside(option.min, std::min(option.max, 64.0));
  integer(static_cast<std::int64_t>(std::ceil(inside(random))));
  integer(static_cast<std::int64_t>(option.max) + 1 + static_cast<std::int64_t>(random() % 1000));
  for (const char* text : {"nan", "inf", "-inf", "-0.0", "1e308", "2.5"}) {
    values.push_back({text, std::strtod(text, nullptr), false});
  }
  for (const char* text : {"\"many\"", "true", "[]", "{}", "\"\""}) values.push_back({text, {}, false});
  return values;
}

bool accepted(const NumericOption& option, const Value& value) {
  if (!value.number) return false;
  if (option.integer && !value.is_integer) return false;
  return *value.number >= option.min && *value.number <= option.max;
}

const char* const kernel = R"(
__kernel void twice(__global int* v) { size_t i = get_global_id(0); v[i] *= 2; }
)";

// Makes the runtime and runs a host task and a kernel on it; throws what the runtime throws.
void use_runtime(const std::string& toml) {
  plexus::Runtime rt(plexus::Config::from_string(toml, "fuzz.toml"));
  std::vector<int> data(64, 3);
  {
    plexus::Buffer<int> buffer(data.data(), data.size());
    plexus::Queue q = rt.queue();
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(rt.build(kernel).kernel("twice"), plexus::Range{data.size()},
                     buffer.access(h, plexus::read_write));
    });
    q.wait();
    buffer.copy_to(data.data());
  }
  int ran = 0;
  rt.host_task([&] { ran = 1; })->wait();
  REQUIRE(ran == 1);
  for (int v : data) REQUIRE(v == 6);
}

}  // namespace

TEST_CASE("extreme numeric options give a working runtime or a config error naming the key") {
  plexus::test::TempDir cache;
  const std::string base = "[log]\nlevel = \"error\"\n[backends]\nuse = [\"host\"]\n"
                           "[compiler]\nuse = \"clang\"\n";
  // The cache's root (or file), in the table that may also hold the fuzzed option.
  const std::string root = "\"" + (cache.path() / "cache").string() + "\"";
  std::mt19937_64 random(20261125);
  // The fuzz stops starting cases after the budget, but runs the first `least` whatever the
  // time: the count checked below must not depend on the machine's speed or load.
  const auto budget = std::chrono::seconds(150);
  constexpr int least = 100;
  const auto started = std::chrono::steady_clock::now();
  int cases = 0, worked = 0, refused = 0;
  for (const NumericOption& option : numeric_options()) {
    for (const Value& value : extreme_values(option, random)) {
      if (cases >= least && std::chrono::steady_clock::now() - started > budget) break;
      // The option's component, else inorder and whole (a config selects each kind).
      std::string select = option.select;
      if (select.find("[scheduler]") == std::string::npos) select += "[scheduler]\nuse = \"inorder\"\n";
      if (select.find("[memory]") == std::string::npos) select += "[memory]\nuse = \"whole\"\n";
      if (select.find("[cache]") == std::string::npos) select += "[cache]\nuse = \"disk\"\n";
      const bool sqlite_cache = select.find("\"sqlite\"") != std::string::npos;
      std::string tables = sqlite_cache ? "[cache.sqlite]\npath = " + root.substr(0, root.size() - 1) +
                                              ".sqlite\"\n"
                                        : "[cache.disk]\nroot = " + root + "\n";
      const std::string line = option.key + " = " + value.toml + "\n";
      if (tables.find("[" + option.table + "]") == 0) {
        tables += line;
      } else {
        tables += "[" + option.table + "]\n" + line;
      }
      const std::string toml = base + select + tables;
      const std::string name = option.table + "." + option.key + " = " + value.toml;
      INFO(name);
      ++cases;
      auto outcome = std::async(std::launch::async, [&]() -> std::string {
        try {
          use_runtime(toml);
          return "";
        } catch (const plexus::error& failure) {
          return std::string(plexus::to_string(failure.category())) + ": " + failure.what();
        }
      });
      if (outcome.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        std::fprintf(stderr, "config fuzz: '%s' did not finish in 60 s (a hang)\n", name.c_str());
        std::_Exit(1);  // the case's thread cannot be stopped: end here, failed
      }
      const std::string result = outcome.get();
      INFO("result: " << (result.empty() ? "a working runtime" : result));
      if (accepted(option, value)) {
        CHECK(result.empty());
        ++worked;
      } else {
        CHECK_THAT(result, Catch::StartsWith("config: "));
        CHECK_THAT(result, Catch::Contains("fuzz.toml:"));  // with line:col
        CHECK_THAT(result, Catch::Contains("'" + option.table + "." + option.key + "'"));
        ++refused;
      }
    }
  }
  std::printf("config fuzz: %d cases (%d worked, %d refused) in %.1f s\n", cases, worked, refused,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  CHECK(cases >= least);
}
