// Kernel bundles from SYCLBIN files (plexus::syclbin::load_bundle) and back (save_bundle):
// files made by `plexus compile --syclbin` run on the host device and on PoCL (SPIR-V
// translated to SPIR bitcode), the choice is reported, a PTX-only file fails clearly on the
// host, truncated and corrupt files fail with the reader's message, the `state` metadata,
// several abstract modules, and bundles built from source persisted and reloaded.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <vector>

#include "plexus/plexus.hpp"
#include "plexus/syclbin/bundle.hpp"
#include "plexus/syclbin/kernel_metadata.hpp"
#include "runtime_test_support.hpp"
#include "syclbin_tool.hpp"

namespace sb = plexus::syclbin;
using plexus::error_category;
using plexus::test::require_error;

namespace {

const char* const source = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
__kernel void fill(__global float* y, float value) { y[get_global_id(0)] = value; }
)";

const char* const other_source = R"(
__kernel void square(__global int* v) { size_t i = get_global_id(0); v[i] = v[i] * v[i]; }
)";

std::unique_ptr<plexus::Runtime> runtime(const std::string& backends = "\"host\", \"opencl\"") {
  return plexus::test::make_runtime({"inorder", "whole"}, backends);
}

std::vector<std::byte> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

// y = a * x + y on `device`, through `bundle`; returns y.
std::vector<float> run_saxpy(plexus::Runtime& rt, plexus::Device& device,
                             const plexus::KernelBundle& bundle) {
  const std::size_t n = 1024;
  std::vector<float> x(n), y(n, 1.0f);
  std::iota(x.begin(), x.end(), 0.0f);
  plexus::Buffer<float> bx(x.data(), n), by(y.data(), n);
  plexus::Queue q = rt.queue(device);
  q.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("saxpy"), plexus::Range{n}, 3.0f, bx.access(h, plexus::read),
                   by.access(h, plexus::read_write));
  });
  by.copy_to(y.data());
  return y;
}

void check_saxpy(const std::vector<float>& y) {
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == 3.0f * float(i) + 1.0f);
}

plexus::Device* device_of_backend(plexus::Runtime& rt, bool own_memory) {
  for (plexus::Device* device : rt.devices())
    if (device->shares_host_memory() != own_memory) return device;
  return nullptr;
}

}  // namespace

TEST_CASE("a SYCLBIN from plexus compile (SPIR-V + PTX + host bitcode) runs on the host and PoCL") {
  plexus::test::TempDir dir;
  const auto file = plexus::test::compile_syclbin(
      dir, "kernels", source, "--target spirv --target ptx --target host");
  auto rt = runtime();
  plexus::Device* host = device_of_backend(*rt, false);
  plexus::Device* pocl = device_of_backend(*rt, true);
  REQUIRE(host != nullptr);
  REQUIRE(pocl != nullptr);  // PoCL is installed wherever Plexus builds

  // The plan, before loading: host bitcode as it is for the host; SPIR-V through the
  // compiler for PoCL (unless PoCL takes SPIR-V itself).
  const auto plans = sb::plan_for(*rt, sb::Syclbin::read_file(file));
  REQUIRE(plans.size() == rt->devices().size());
  for (const auto& plan : plans) {
    INFO(plan.failure);
    REQUIRE(plan.failure.empty());
    REQUIRE(plan.choices.size() == 1);
  }

  plexus::KernelBundle bundle = sb::load_bundle(*rt, file);
  INFO(bundle.description());
  CHECK(bundle.devices().size() == 2);
  CHECK(bundle.kernel_names() == std::vector<std::string>{"saxpy", "fill"});
  const std::string description = bundle.description();
  CHECK_THAT(description, Catch::Contains("'" + host->info().name +
                                         "': abstract module 0: IR module 2 (LLVM bitcode"));
  CHECK_THAT(description, Catch::Contains("the device loads llvm-bitcode as it is"));
  const bool pocl_takes_spirv =
      std::find(pocl->info().formats.begin(), pocl->info().formats.end(),
                plexus::BinaryFormat::spirv) != pocl->info().formats.end();
  if (pocl_takes_spirv) {
    CHECK_THAT(description, Catch::Contains("IR module 0 (SPIR-V, spir64-unknown-unknown): the "
                                            "device loads spirv as it is"));
  } else {
    CHECK_THAT(description, Catch::Contains(
                                "'" + pocl->info().name +
                                "': abstract module 0: IR module 0 (SPIR-V, spir64-unknown-"
                                "unknown): translated through the compiler to spir-bitcode"));
  }
  check_saxpy(run_saxpy(*rt, *host, bundle));
  check_saxpy(run_saxpy(*rt, *pocl, bundle));
  // Both kernels are reachable and run.
  CHECK(bundle.kernel("fill").info().args.size() == 2);

  // The same file again, from memory: every module comes from the program cache.
  const auto before = rt->program_cache_stats();
  const std::vector<std::byte> bytes = read_all(file);
  plexus::KernelBundle again = sb::load_bundle(*rt, std::span<const std::byte>(bytes));
  const auto after = rt->program_cache_stats();
  CHECK(after.modules.builds == before.modules.builds);
  CHECK(after.modules.hits == before.modules.hits + 2);
  check_saxpy(run_saxpy(*rt, *pocl, again));
}

TEST_CASE("a SYCLBIN with only PTX: on the host, an error listing the offer and the device") {
  plexus::test::TempDir dir;
  const auto file = plexus::test::compile_syclbin(dir, "ptx_only", source, "--target ptx");
  auto rt = runtime("\"host\"");
  require_error([&] { sb::load_bundle(*rt, file); }, error_category::unsupported,
                "no device can run '" + file.string() +
                    "'; it offers abstract module 0: IR module 0 (PTX, nvptx64-nvidia-cuda)");
  require_error([&] { sb::load_bundle(*rt, file); }, error_category::unsupported,
                "no image of abstract module 0 fits: the device loads llvm-bitcode");
  // `plan` says the same per device.
  const auto plans = sb::plan_for(*rt, sb::Syclbin::read_file(file));
  REQUIRE(plans.size() == 1);
  CHECK_THAT(plans[0].failure, Catch::Contains("the compiler produces"));
}

TEST_CASE("truncated and corrupt SYCLBIN files fail with the reader's message") {
  plexus::test::TempDir dir;
  const auto file = plexus::test::compile_syclbin(dir, "k", source, "--target host");
  auto rt = runtime("\"host\"");
  std::vector<std::byte> bytes = read_all(file);
  const std::vector<std::byte> cut(bytes.begin(), bytes.begin() + 100);
  require_error([&] { sb::load_bundle(*rt, std::span<const std::byte>(cut)); },
                error_category::invalid_argument,
                "the SYCLBIN buffer: OffloadBinary wrapper: size field");
  std::vector<std::byte> corrupt = bytes;
  corrupt[72] = std::byte{0x00};  // the SYCLBIN magic inside the wrapper
  require_error([&] { sb::load_bundle(*rt, std::span<const std::byte>(corrupt)); },
                error_category::invalid_argument,
                "OffloadBinary wrapper: none of its 1 entries (image kinds 7) holds a SYCLBIN");
  std::vector<std::byte> bare = sb::Syclbin::read(bytes).write(sb::Wrapping::bare);
  bare[0] = std::byte{0x00};
  require_error([&] { sb::load_bundle(*rt, std::span<const std::byte>(bare)); },
                error_category::invalid_argument, "the SYCLBIN buffer: malformed SYCLBIN: bad magic");
  const auto cut_file = dir.path() / "cut.syclbin";
  std::ofstream(cut_file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), 300);
  require_error([&] { sb::load_bundle(*rt, cut_file); }, error_category::invalid_argument,
                "'" + cut_file.string() + "': ");
  require_error([&] { sb::load_bundle(*rt, dir.path() / "missing.syclbin"); },
                error_category::io, "missing.syclbin");
  // A file that names a kernel no image defines.
  sb::Syclbin lying = sb::Syclbin::read(bytes);
  lying.abstract_modules[0].metadata.set(std::string(sb::names::kernel_names), "ghost", 1u);
  require_error([&] { sb::load_bundle(*rt, lying, "lying"); }, error_category::invalid_argument,
                "lying: abstract module 0 names kernel 'ghost'");
}

TEST_CASE("the state metadata: executable, input, object, and a bad value") {
  plexus::test::TempDir dir;
  const auto file = plexus::test::compile_syclbin(dir, "k", source, "--target host");
  auto rt = runtime("\"host\"");
  plexus::Device& host = *rt->devices().front();
  const sb::Syclbin original = sb::Syclbin::read_file(file);
  REQUIRE(original.state() == sb::State::executable);

  SECTION("input: IR is compiled for the device (not loaded as is)") {
    sb::Syclbin input = original;
    input.set_state(sb::State::input);
    const auto builds = rt->program_cache_stats().programs.builds;
    plexus::KernelBundle bundle = sb::load_bundle(*rt, input, "input");
    CHECK_THAT(bundle.description(), Catch::Contains("state input: compiled to llvm-bitcode"));
    CHECK(rt->program_cache_stats().programs.builds == builds + 1);
    check_saxpy(run_saxpy(*rt, host, bundle));
  }
  SECTION("executable: loaded as it is, without the compiler") {
    const auto builds = rt->program_cache_stats().programs.builds;
    plexus::KernelBundle bundle = sb::load_bundle(*rt, original, "executable");
    CHECK(rt->program_cache_stats().programs.builds == builds);
    CHECK_THAT(bundle.description(), Catch::Contains("loads llvm-bitcode as it is"));
    check_saxpy(run_saxpy(*rt, host, bundle));
  }
  SECTION("no kernel info (as DPC++ writes files): the compiler inspects the IR") {
    sb::Syclbin bare = original;
    sb::PropertySetRegistry metadata;
    for (const auto& set : bare.abstract_modules[0].metadata.sets())
      if (set.name() != sb::kernel_info_set) metadata.add_set(set.name()) = set;
    bare.abstract_modules[0].metadata = metadata;
    plexus::KernelBundle bundle = sb::load_bundle(*rt, bare, "bare");
    check_saxpy(run_saxpy(*rt, host, bundle));
  }
  SECTION("object: a module that imports symbols is refused, others load") {
    sb::Syclbin object = original;
    object.set_state(sb::State::object);
    check_saxpy(run_saxpy(*rt, host, sb::load_bundle(*rt, object, "object")));
    object.abstract_modules[0].metadata.set("SYCL/imported symbols", "helper", 1u);
    require_error([&] { sb::load_bundle(*rt, object, "object"); }, error_category::unsupported,
                  "imports symbols (state object)");
  }
  SECTION("a state outside 0..2") {
    sb::Syclbin bad = original;
    bad.global_metadata.set(std::string(sb::names::global_metadata), "state", 7u);
    require_error([&] { sb::load_bundle(*rt, bad, "bad"); }, error_category::invalid_argument,
                  "state: expected 0 (input), 1 (object) or 2 (executable), found 7");
  }
}

TEST_CASE("several abstract modules: every kernel reachable, each from its own module") {
  plexus::test::TempDir dir;
  const auto first = plexus::test::compile_syclbin(dir, "a", source, "--target spirv --target host");
  const auto second = plexus::test::compile_syclbin(dir, "b", other_source, "--target host");
  sb::Syclbin merged = sb::Syclbin::read_file(first);
  const sb::Syclbin second_file = sb::Syclbin::read_file(second);  // its images are views
  merged.abstract_modules.push_back(second_file.abstract_modules[0]);
  auto rt = runtime("\"host\"");
  plexus::KernelBundle bundle = sb::load_bundle(*rt, merged, "merged");
  CHECK(bundle.kernel_names() == std::vector<std::string>{"saxpy", "fill", "square"});
  CHECK_THAT(bundle.description(), Catch::Contains("abstract module 1: IR module 0"));
  plexus::Device& host = *rt->devices().front();
  check_saxpy(run_saxpy(*rt, host, bundle));
  std::vector<int> v{1, 2, 3, 4};
  {
    plexus::Buffer<int> bv(v.data(), v.size());
    rt->queue(host).submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("square"), plexus::Range{v.size()},
                     bv.access(h, plexus::read_write));
    });
    bv.copy_to(v.data());
  }
  CHECK(v == std::vector<int>{1, 4, 9, 16});
  // Written back: two abstract modules, loadable again.
  const sb::Syclbin written = sb::to_syclbin(bundle);
  CHECK(written.abstract_modules.size() == 2);
  CHECK(written.abstract_modules[1].kernel_names() == std::vector<std::string>{"square"});
}

TEST_CASE("a bundle built from source persists as SYCLBIN and reloads in a new runtime") {
  plexus::test::TempDir dir;
  const auto path = dir.path() / "built.syclbin";
  std::vector<std::vector<float>> first_results;
  {
    auto rt = runtime();
    plexus::KernelBundle built = rt->build(source);
    for (plexus::Device* device : built.devices())
      first_results.push_back(run_saxpy(*rt, *device, built));
    REQUIRE(first_results.size() == 2);
    sb::save_bundle(built, path);
    // Deterministic: the same bundle writes the same bytes.
    CHECK(sb::to_syclbin(built).write() == read_all(path));
  }
  auto rt = runtime();
  const auto builds = rt->program_cache_stats().programs.builds;
  plexus::KernelBundle loaded = sb::load_bundle(*rt, path);
  INFO(loaded.description());
  // The binaries were kept: nothing is compiled again.
  CHECK(rt->program_cache_stats().programs.builds == builds);
  REQUIRE(loaded.devices().size() == 2);
  std::size_t i = 0;
  for (plexus::Device* device : loaded.devices()) {
    const auto y = run_saxpy(*rt, *device, loaded);
    check_saxpy(y);
    CHECK(y == first_results[i++]);
  }
  // And a loaded bundle writes back what it loaded.
  const sb::Syclbin again = sb::to_syclbin(loaded);
  REQUIRE(again.abstract_modules.size() == 1);
  CHECK(again.abstract_modules[0].kernel_names() == std::vector<std::string>{"saxpy", "fill"});
}

// The device machine: PTX images of a SYCLBIN run on every device that loads PTX (CUDA,
// NVIDIA's OpenCL). Without such a device there is nothing to check (a warning says so).
// PLEXUS_TEST_SYCLBIN names a prebuilt file (a machine without the compiler); otherwise the
// tool makes one.
TEST_CASE("PTX images of a SYCLBIN run on the devices that load PTX") {
  auto rt = std::make_unique<plexus::Runtime>(plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"cuda\", \"opencl\"]\nskip_missing = true\n"
      "[scheduler]\nuse = \"inorder\"\n[memory]\nuse = \"whole\"\n",
      "gpu-test.toml"));
  std::vector<plexus::Device*> ptx_devices;
  for (plexus::Device* device : rt->devices()) {
    const auto& formats = device->info().formats;
    if (std::find(formats.begin(), formats.end(), plexus::BinaryFormat::ptx) != formats.end())
      ptx_devices.push_back(device);
  }
  if (ptx_devices.empty()) {
    WARN("no device loads PTX here (the device machine runs this case)");
    return;
  }
  plexus::test::TempDir dir;
  const char* prebuilt = std::getenv("PLEXUS_TEST_SYCLBIN");
  const auto file = prebuilt ? std::filesystem::path(prebuilt)
                             : plexus::test::compile_syclbin(
                                   dir, "kernels", source, "--target spirv --target ptx --target host");
  plexus::KernelBundle bundle = sb::load_bundle(*rt, file);
  INFO(bundle.description());
  for (plexus::Device* device : ptx_devices) {
    CHECK_THAT(bundle.description(),
               Catch::Contains("'" + device->info().name +
                               "': abstract module 0: IR module 1 (PTX, nvptx64-nvidia-cuda): the "
                               "device loads ptx as it is"));
    check_saxpy(run_saxpy(*rt, *device, bundle));
  }
}
