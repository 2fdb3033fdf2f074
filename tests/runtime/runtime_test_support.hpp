// Helpers for the application-API tests: a Runtime over a chosen scheduler, memory policy
// and backends (built-tree plugins), the policy x scheduler matrix, and the devices with
// their own memory (PoCL) when there is one.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "plexus/plexus.hpp"
#include "test_support.hpp"

namespace plexus::test {

struct RuntimeChoice {
  std::string scheduler;
  std::string memory;
  std::string label() const { return "scheduler/" + scheduler + " memory/" + memory; }
};

// Every memory policy x both schedulers.
inline std::vector<RuntimeChoice> runtime_matrix() {
  std::vector<RuntimeChoice> choices;
  for (const char* scheduler : {"inorder", "dag"}) {
    for (const char* memory : {"whole", "paged", "exact"}) choices.push_back({scheduler, memory});
  }
  return choices;
}

// backends: a TOML array body, e.g. "\"host\", \"opencl\"". `extra`: more TOML appended.
inline Config runtime_config(const RuntimeChoice& choice,
                             const std::string& backends = "\"host\", \"opencl\"",
                             const std::string& extra = "") {
  return Config::from_string("[log]\nlevel = \"warn\"\n"
                             "[backends]\nuse = [" + backends + "]\nskip_missing = true\n"
                             "[scheduler]\nuse = \"" + choice.scheduler + "\"\n"
                             "[memory]\nuse = \"" + choice.memory + "\"\n"
                             "[compiler]\nuse = \"clang\"\n"
                             "[cache]\nuse = \"memory\"\n" + extra,
                             "runtime-test.toml");
}

inline std::unique_ptr<Runtime> make_runtime(const RuntimeChoice& choice,
                                             const std::string& backends = "\"host\", \"opencl\"",
                                             const std::string& extra = "") {
  return std::make_unique<Runtime>(runtime_config(choice, backends, extra));
}

// The first device with its own memory (location 1..), or nullptr.
inline Device* device_with_own_memory(const Runtime& runtime) {
  for (Device* device : runtime.devices()) {
    if (!device->shares_host_memory()) return device;
  }
  return nullptr;
}

// Whether `device` has USM device memory; when not (an OpenCL device without SVM, e.g.),
// checks that malloc_device says so, naming the device, and warns that the caller skips it.
inline bool has_usm_device_memory(Device& device, Runtime& runtime);

// Expects `call` to throw plexus::error of `category` whose message contains `part`.
template <class Call>
void require_error(Call&& call, error_category category, const std::string& part) {
  try {
    call();
  } catch (const error& failure) {
    INFO(failure.what());
    CHECK(failure.category() == category);
    CHECK_THAT(failure.what(), Catch::Contains(part));
    return;
  }
  FAIL("expected a plexus::error containing '" << part << "'");
}

inline bool has_usm_device_memory(Device& device, Runtime& runtime) {
  if (device.supports_usm(UsmKind::device)) return true;
  Queue queue = runtime.queue(device);
  require_error([&] { (void)malloc_device(64, queue); }, error_category::unsupported,
                device.info().name);
  WARN("skipped on '" << device.info().name << "': no USM device memory there");
  return false;
}

}  // namespace plexus::test
