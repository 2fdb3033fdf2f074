// Backend conformance: loads every libplexus_backend_*.so of the build's plugin directory
// (PLEXUS_BUILD_PLUGIN_DIR, else the build tree's, compiled in) through the core's plugin
// loader and checks the Backend contract, then what host, opencl and cuda must report on
// this machine. A backend this build did not configure is reported with WARN and skipped;
// one it configured but that is missing from the directory fails.
#include <catch2/catch.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "plexus/runtime.hpp"
#include "backend_loader.hpp"

namespace fs = std::filesystem;
using plexus::Backend;
using plexus::BinaryFormat;
using plexus::DeviceType;

namespace {

using plexus::test::built_backends;
using plexus::test::load_backend;
using plexus::test::plugin_file;

fs::path plugin_dir() { return plexus::test::backend_plugin_dir(); }

bool is_configured(const std::string& name) {
  return std::string_view(PLEXUS_TEST_CONFIGURED_BACKENDS).find("," + name + ",") !=
         std::string_view::npos;
}

bool is_built(const std::string& name) {
  const fs::path file = plugin_file("backend", name);
  if (fs::exists(file)) return true;
  if (is_configured(name)) FAIL("the " << name << " backend was built but " << file << " is missing");
  WARN("the " << name << " backend was not built (its headers were not found): skipped");
  return false;
}

bool contains(const std::vector<BinaryFormat>& formats, BinaryFormat format) {
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

std::string reason_of(const Backend& backend) { return backend.status().reason; }

// The Backend contract, for any backend on any machine.
void check_contract(const std::string& name, const Backend& backend) {
  INFO("backend " << name << ": " << reason_of(backend));
  const plexus::BackendStatus status = backend.status();
  if (!status.available) {
    CHECK_FALSE(status.reason.empty());
    CHECK(backend.device_count() == 0);
  } else {
    CHECK(backend.device_count() > 0);
  }
  for (std::size_t i = 0; i < backend.device_count(); ++i) {
    const plexus::Device& device = backend.device(i);
    const plexus::DeviceInfo& info = device.info();
    INFO("device " << i << ": " << info.name);
    CHECK_FALSE(info.name.empty());
    CHECK_FALSE(info.vendor.empty());
    CHECK_FALSE(info.architecture.empty());
    CHECK_FALSE(info.formats.empty());
    CHECK(info.compute_units > 0);
    CHECK(&device.backend() == &backend);
    CHECK(&backend.device(i) == &device);  // discovered once: the same object every time
  }
  CHECK_THROWS_AS(backend.device(backend.device_count()), plexus::error);
}

bool pocl_registered() {
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  const fs::path dir = vendors ? fs::path(vendors) : fs::path("/etc/OpenCL/vendors");
  std::error_code ec;
  if (fs::is_regular_file(dir, ec)) return dir.filename().string().find("pocl") != std::string::npos;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().find("pocl") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("every built backend plugin honours the Backend contract", "[backends]") {
  const auto names = built_backends();
  INFO("plugin directory: " << plugin_dir());
  REQUIRE_FALSE(plugin_dir().empty());
  REQUIRE(std::find(names.begin(), names.end(), "host") != names.end());
  for (const std::string name : {"host", "opencl", "cuda", "level_zero", "hip", "mpi"})
    if (is_configured(name))
      CHECK(std::find(names.begin(), names.end(), name) != names.end());
  for (const auto& name : names) {
    const auto backend = load_backend(name);
    check_contract(name, *backend);
    // Rank 0 of an MPI job with workers (tests/mpi): the remote devices are checked too.
    const char* ranks = std::getenv("OMPI_COMM_WORLD_SIZE");
    if (name == "mpi" && ranks && std::atoi(ranks) > 1) CHECK(backend->device_count() > 0);
  }
}

TEST_CASE("backends are safe to query from several threads", "[backends]") {
  for (const auto& name : built_backends()) {
    const auto backend = load_backend(name);
    std::vector<std::thread> threads;
    std::vector<std::size_t> seen(4, 0);
    for (std::size_t t = 0; t < seen.size(); ++t)
      threads.emplace_back([&, t] {
        for (int round = 0; round < 100; ++round) {
          const auto status = backend->status();
          for (std::size_t i = 0; i < backend->device_count(); ++i)
            seen[t] += backend->device(i).info().name.size() + status.reason.size();
        }
      });
    for (auto& thread : threads) thread.join();
    INFO("backend " << name);
    CHECK(std::all_of(seen.begin(), seen.end(), [&](std::size_t n) { return n == seen[0]; }));
  }
}

TEST_CASE("host: one CPU device describing this machine", "[backends][host]") {
  if (!is_built("host")) return;
  const auto backend = load_backend("host");
  check_contract("host", *backend);
  REQUIRE(backend->status().available);
  REQUIRE(backend->device_count() == 1);
  const plexus::DeviceInfo& info = backend->device(0).info();
  CHECK(info.type == DeviceType::cpu);
  if (std::thread::hardware_concurrency() > 0)
    CHECK(info.compute_units == std::thread::hardware_concurrency());
  CHECK(info.global_memory_bytes > 0);
  CHECK(info.formats == std::vector<BinaryFormat>{BinaryFormat::llvm_bitcode});
  CHECK_FALSE(info.version.empty());
  CHECK_FALSE(info.driver_version.empty());
}

TEST_CASE("opencl: finds PoCL's CPU device where PoCL is installed", "[backends][opencl]") {
  if (!is_built("opencl")) return;
  const auto backend = load_backend("opencl");
  check_contract("opencl", *backend);
  if (!pocl_registered()) {
    WARN("PoCL is not registered with the ICD loader here; opencl status: "
         << reason_of(*backend));
    return;
  }
  INFO(reason_of(*backend));
  REQUIRE(backend->status().available);
  const plexus::DeviceInfo* pocl = nullptr;
  for (std::size_t i = 0; i < backend->device_count(); ++i) {
    const auto& info = backend->device(i).info();
    if (info.version.find("PoCL") != std::string::npos && info.type == DeviceType::cpu)
      pocl = &info;
  }
  REQUIRE(pocl != nullptr);
  INFO(pocl->name << " / " << pocl->version << " / " << pocl->architecture);
  CHECK(contains(pocl->formats, BinaryFormat::spir_bitcode));
  CHECK(pocl->formats.back() == BinaryFormat::opencl_c_source);
  CHECK_FALSE(contains(pocl->formats, BinaryFormat::ptx));
  CHECK(pocl->global_memory_bytes > 0);
  CHECK(pocl->local_memory_bytes > 0);
  CHECK(pocl->max_work_group_size > 0);
  CHECK_FALSE(pocl->driver_version.empty());
  // PoCL's CPU name "<driver>-<LLVM CPU>-<model>" and its "HSTR: <driver>-<triple>-<LLVM
  // CPU>" version agree on the LLVM CPU name the backend reports as the architecture.
  CHECK(pocl->version.ends_with("-" + pocl->architecture));
}

TEST_CASE("opencl: a platform filter that matches nothing names the filter",
          "[backends][opencl]") {
  if (!is_built("opencl")) return;
  const auto backend = load_backend("opencl", "platform = \"no-such-platform\"");
  check_contract("opencl", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("no-such-platform"));
}

TEST_CASE("opencl: a platform filter keeps only matching platforms", "[backends][opencl]") {
  if (!is_built("opencl")) return;
  if (!pocl_registered()) {
    WARN("PoCL is not registered with the ICD loader here: skipped");
    return;
  }
  const auto backend = load_backend("opencl", "platform = \"Portable Computing\"");
  check_contract("opencl", *backend);
  REQUIRE(backend->status().available);
  for (std::size_t i = 0; i < backend->device_count(); ++i)
    CHECK_THAT(backend->device(i).info().version, Catch::Contains("PoCL"));
}

TEST_CASE("opencl: without an ICD it says how to register one", "[backends][opencl]") {
  if (!is_built("opencl")) return;
  const fs::path empty = fs::temp_directory_path() / "plexus-backend-test-no-icd";
  fs::create_directories(empty);
  ::setenv("OCL_ICD_VENDORS", empty.c_str(), 1);
  const auto backend = load_backend("opencl");
  ::unsetenv("OCL_ICD_VENDORS");
  check_contract("opencl", *backend);
  if (backend->status().available) {
    WARN("the ICD loader was initialised earlier in this process; run this test alone");
    return;
  }
  CHECK_THAT(reason_of(*backend), Catch::Contains("/etc/OpenCL/vendors"));
  CHECK_THAT(reason_of(*backend), Catch::Contains("OCL_ICD_VENDORS"));
}

TEST_CASE("cuda: GPUs through the driver, or unavailable naming libcuda.so.1",
          "[backends][cuda]") {
  if (!is_built("cuda")) return;
  const auto backend = load_backend("cuda");
  check_contract("cuda", *backend);
  const std::string reason = reason_of(*backend);
  INFO(reason);
  if (!backend->status().available) {
    CHECK_THAT(reason, Catch::Contains("libcuda.so.1"));
    return;
  }
  for (std::size_t i = 0; i < backend->device_count(); ++i) {
    const auto& info = backend->device(i).info();
    INFO(info.name);
    CHECK(info.type == DeviceType::gpu);
    CHECK(info.vendor == "NVIDIA");
    CHECK(info.architecture.starts_with("sm_"));
    CHECK(info.formats == std::vector<BinaryFormat>{BinaryFormat::ptx});
    CHECK(info.global_memory_bytes > 0);
    CHECK(info.local_memory_bytes > 0);
    CHECK(info.max_work_group_size > 0);
    CHECK_FALSE(info.driver_version.empty());
  }
}

TEST_CASE("cuda: a driver library that does not exist is named with dlerror's text",
          "[backends][cuda]") {
  if (!is_built("cuda")) return;
  const auto backend = load_backend("cuda", "library = \"/nonexistent/libcuda.so.1\"");
  check_contract("cuda", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("/nonexistent/libcuda.so.1") &&
                                      Catch::Contains("No such file"));
}

TEST_CASE("cuda: the toolkit's stub library fails cuInit cleanly", "[backends][cuda]") {
  if (!is_built("cuda")) return;
  fs::path stub;
  for (const char* candidate : {"/usr/local/cuda/lib64/stubs/libcuda.so",
                                "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"})
    if (fs::exists(candidate)) stub = candidate;
  if (stub.empty()) {
    WARN("no CUDA toolkit stub libcuda.so here: skipped");
    return;
  }
  const auto backend = load_backend("cuda", "library = \"" + stub.string() + "\"");
  check_contract("cuda", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("cuInit") && Catch::Contains("stub"));
}

// The Level Zero loader as Debian installs it (libze1); without it the plugin still loads.
bool level_zero_loader_installed() {
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"})
    if (fs::exists(fs::path(dir) / "libze_loader.so.1")) return true;
  return false;
}

// Whether `soname` is loaded in this process (dlopen RTLD_NOLOAD loads nothing).
bool library_loaded(const char* soname) {
  void* handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (handle) dlclose(handle);
  return handle != nullptr;
}

// Backend `name` on a machine without its device node: unavailable, the reason starting with
// `missing` and naming `soname` as not loaded, and `soname` not loaded into the process.
void check_not_loaded(const std::string& name, const char* soname, const std::string& missing) {
  const bool loaded_before = library_loaded(soname);
  const auto backend = load_backend(name);
  check_contract(name, *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend),
             Catch::StartsWith(missing) &&
                 Catch::Contains(std::string(soname) + " was not loaded") &&
                 Catch::Contains("`device_node_check = false` of [backends." + name + "]"));
  if (loaded_before)
    WARN(soname << " was already loaded in this process: not checked that it stays out");
  else
    CHECK_FALSE(library_loaded(soname));
}

bool has_entry(const fs::path& directory, std::string_view prefix) {
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
    if (it->path().filename().string().starts_with(prefix)) return true;
  return false;
}

// A machine where no Level Zero driver can have a device (ze_backend.cpp's check).
bool no_level_zero_device_node() {
  return !has_entry("/dev/dri", "renderD") && !has_entry("/dev/accel", "accel") &&
         !fs::exists("/dev/dxg") && !std::getenv("ZE_ENABLE_ALT_DRIVERS") &&
         !std::getenv("ZE_ENABLE_NULL_DRIVER");
}

TEST_CASE("level_zero: without a device node the loader is not loaded, and the reason says so",
          "[backends][level_zero]") {
  if (!is_built("level_zero")) return;
  if (!no_level_zero_device_node()) {
    WARN("this machine has a device node a Level Zero driver may use: skipped");
    return;
  }
  check_not_loaded("level_zero", "libze_loader.so.1",
                   "no GPU render node (/dev/dri/renderD*), accelerator node");
}

TEST_CASE("level_zero: devices through the loader, or unavailable with the loader's reason",
          "[backends][level_zero]") {
  if (!is_built("level_zero")) return;
  // device_node_check = false: the loader runs here too, without a device node.
  const auto backend = load_backend("level_zero", "device_node_check = false");
  check_contract("level_zero", *backend);
  const std::string reason = reason_of(*backend);
  INFO(reason);
  if (!backend->status().available) {
    CHECK_THAT(reason, Catch::Contains("libze_loader.so.1"));
    if (level_zero_loader_installed()) {
      // The loader ran and said why: zeInit's code by name and number, or no device.
      CHECK_THAT(reason, (Catch::Contains("zeInit failed: ZE_RESULT_") && Catch::Contains("(0x")) ||
                             Catch::Contains("no driver") || Catch::Contains("no usable device"));
    }
    return;
  }
  for (std::size_t i = 0; i < backend->device_count(); ++i) {
    const auto& info = backend->device(i).info();
    INFO(info.name);
    CHECK(info.formats == std::vector<BinaryFormat>{BinaryFormat::spirv});
    CHECK_FALSE(info.spirv_version.empty());
    CHECK(info.version.starts_with("Level Zero "));
    CHECK(info.global_memory_bytes > 0);
    CHECK(info.local_memory_bytes > 0);
    CHECK(info.max_work_group_size > 0);
    CHECK_FALSE(info.driver_version.empty());
  }
}

TEST_CASE("level_zero: a loader that does not exist is named with dlerror's text",
          "[backends][level_zero]") {
  if (!is_built("level_zero")) return;
  const auto backend = load_backend("level_zero", "library = \"/nonexistent/libze_loader.so.1\"\n"
                                                   "device_node_check = false");
  check_contract("level_zero", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("/nonexistent/libze_loader.so.1") &&
                                      Catch::Contains("No such file") &&
                                      Catch::Contains("[backends.level_zero]"));
}

TEST_CASE("level_zero: a library that is not the loader names the missing entry point",
          "[backends][level_zero]") {
  if (!is_built("level_zero")) return;
  const auto backend = load_backend("level_zero", "library = \"libm.so.6\"\ndevice_node_check = false");
  check_contract("level_zero", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("libm.so.6") && Catch::Contains("lacks zeInit"));
}

TEST_CASE("hip: without /dev/kfd the runtime is not loaded, and the reason says so",
          "[backends][hip]") {
  if (!is_built("hip")) return;
  if (fs::exists("/dev/kfd") || fs::exists("/dev/dxg")) {
    WARN("this machine has /dev/kfd or /dev/dxg: skipped");
    return;
  }
  check_not_loaded("hip", "libamdhip64.so.5", "/dev/kfd does not exist: no AMD GPU");
}

TEST_CASE("hip: AMD GPUs through the runtime, or unavailable with the runtime's reason",
          "[backends][hip]") {
  if (!is_built("hip")) return;
  // device_node_check = false: the runtime runs here too, without /dev/kfd.
  const auto backend = load_backend("hip", "device_node_check = false");
  check_contract("hip", *backend);
  const std::string reason = reason_of(*backend);
  INFO(reason);
  if (!backend->status().available) {
    CHECK_THAT(reason, Catch::Contains("libamdhip64.so.5"));
    if (!fs::exists("/dev/kfd") && reason.find("cannot load") == std::string::npos) {
      // The runtime ran and said why: hipInit's error by name and number, and the note.
      CHECK_THAT(reason, Catch::Matches(".*hip(Init|GetDeviceCount).*hipError[A-Za-z]+ \\([0-9]+\\).*") ||
                             Catch::Contains("reports no device"));
      CHECK_THAT(reason, Catch::Contains("/dev/kfd does not exist"));
    }
    return;
  }
  for (std::size_t i = 0; i < backend->device_count(); ++i) {
    const auto& info = backend->device(i).info();
    INFO(info.name);
    CHECK(info.type == DeviceType::gpu);
    CHECK(info.vendor == "AMD");
    CHECK(info.architecture.starts_with("gfx"));
    CHECK(info.architecture.find(':') == std::string::npos);  // the processor alone
    CHECK(info.formats == std::vector<BinaryFormat>{BinaryFormat::amdgcn});
    CHECK(info.global_memory_bytes > 0);
    CHECK(info.local_memory_bytes > 0);
    CHECK(info.max_work_group_size > 0);
  }
}

TEST_CASE("hip: a runtime library that does not exist is named with dlerror's text",
          "[backends][hip]") {
  if (!is_built("hip")) return;
  const auto backend = load_backend("hip", "library = \"/nonexistent/libamdhip64.so.5\"\n"
                                            "device_node_check = false");
  check_contract("hip", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("/nonexistent/libamdhip64.so.5") &&
                                      Catch::Contains("No such file") &&
                                      Catch::Contains("[backends.hip]"));
}

TEST_CASE("hip: a library that is not the runtime names the missing entry point",
          "[backends][hip]") {
  if (!is_built("hip")) return;
  const auto backend = load_backend("hip", "library = \"libm.so.6\"\ndevice_node_check = false");
  check_contract("hip", *backend);
  CHECK_FALSE(backend->status().available);
  CHECK_THAT(reason_of(*backend), Catch::Contains("libm.so.6") && Catch::Contains("lacks hipInit"));
}

TEST_CASE("runtime: a config selecting the host backend exposes its device", "[backends]") {
  if (!is_built("host")) return;
  if (!fs::exists(plugin_file("scheduler", "inorder"))) {
    WARN("the inorder scheduler was not built: skipped");
    return;
  }
  plexus::Runtime runtime(plexus::Config::from_string(
      "[backends]\nuse=[\"host\"]\n[scheduler]\nuse=\"inorder\"\n", "test"));
  REQUIRE(runtime.components().backend_count() == 1);
  Backend& backend = runtime.components().backend(0);
  check_contract("host", backend);
  const auto devices = runtime.devices();
  REQUIRE(devices.size() == 1);
  CHECK(&devices[0]->backend() == &backend);
  CHECK(devices[0]->info().type == DeviceType::cpu);
}
