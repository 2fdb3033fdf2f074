// Device conformance, bad input: launches with the wrong arguments or ranges, unknown kernel
// names, formats a device does not load and binaries its driver rejects all fail with a
// plexus::error of the right category that names the problem.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::BinaryFormat;
using plexus::Device;
using plexus::KernelArgument;
using plexus::NdRange;
using plexus::error_category;
using plexus::test::Allocation;
using plexus::test::for_each_device;
using plexus::test::load_program;

namespace {

template <class Action>
void expect_error(Action action, error_category category, const std::string& words) {
  try {
    action();
    FAIL("no error; expected " << plexus::to_string(category) << " mentioning '" << words << "'");
  } catch (const plexus::error& e) {
    INFO(e.what());
    CHECK(e.category() == category);
    CHECK_THAT(e.what(), Catch::Contains(words));
  }
}

const char* const errors_source = R"(
  __kernel void scale(__global float* x, float factor) { x[get_global_id(0)] *= factor; }
  __kernel void other(__global int* y) { y[0] = 1; }
)";

}  // namespace

TEST_CASE("launches with wrong arguments or ranges are refused before running",
          "[devices][launch][errors]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, errors_source);
    if (!module) return;
    const plexus::DeviceKernel& scale = module->kernel("scale");
    Allocation x(device, 64 * 4);
    const auto queue = device.create_queue();
    const float factor = 2;
    const double wide = 2;
    NdRange range;
    range.global = {64, 1, 1};

    const KernelArgument too_few[] = {KernelArgument::of_allocation(x.get())};
    expect_error([&] { queue->launch(scale, range, too_few); }, error_category::invalid_argument,
                 "takes 2 argument(s), 1 given");
    const KernelArgument swapped[] = {KernelArgument::of_scalar(&factor, 4),
                                      KernelArgument::of_allocation(x.get())};
    expect_error([&] { queue->launch(scale, range, swapped); }, error_category::invalid_argument,
                 "argument 0 ('x')");
    const KernelArgument local_for_value[] = {KernelArgument::of_allocation(x.get()),
                                              KernelArgument::of_local(4)};
    expect_error([&] { queue->launch(scale, range, local_for_value); },
                 error_category::invalid_argument, "argument 1 ('factor')");
    const KernelArgument wrong_size[] = {KernelArgument::of_allocation(x.get()),
                                         KernelArgument::of_scalar(&wide, 8)};
    expect_error([&] { queue->launch(scale, range, wrong_size); },
                 error_category::invalid_argument, "is 4 byte(s), 8 given");

    const KernelArgument good[] = {KernelArgument::of_allocation(x.get()),
                                   KernelArgument::of_scalar(&factor, 4)};
    NdRange uneven = range;
    uneven.global = {10, 1, 1};
    uneven.local = {4, 1, 1};
    expect_error([&] { queue->launch(scale, uneven, good); }, error_category::invalid_argument,
                 "not a multiple");
    NdRange no_dimensions = range;
    no_dimensions.dimensions = 0;
    expect_error([&] { queue->launch(scale, no_dimensions, good); },
                 error_category::invalid_argument, "1 to 3 dimensions");
    queue->launch(scale, range, good);  // the queue still works after refusals
    queue->wait();
  });
}

TEST_CASE("an unknown kernel name lists the module's kernels", "[devices][errors]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, errors_source);
    if (!module) return;
    CHECK(module->kernels().size() == 2);
    CHECK(&module->device() == &device);
    CHECK(module->kernel("other").info().name == "other");
    expect_error([&] { module->kernel("no_such_kernel"); }, error_category::invalid_argument,
                 "no_such_kernel");
    expect_error([&] { module->kernel("no_such_kernel"); }, error_category::invalid_argument,
                 "'scale', 'other'");
  });
}

TEST_CASE("a format the device does not load is unsupported, naming those it does",
          "[devices][errors]") {
  for_each_device([](Device& device) {
    const auto& formats = device.info().formats;
    for (BinaryFormat format : {BinaryFormat::amdgcn, BinaryFormat::native, BinaryFormat::spirv,
                                BinaryFormat::ptx, BinaryFormat::llvm_bitcode}) {
      if (std::find(formats.begin(), formats.end(), format) != formats.end()) continue;
      const std::vector<std::byte> bytes(64, std::byte{1});
      INFO("format " << plexus::to_string(format));
      expect_error([&] { device.load_module(format, bytes, {}); }, error_category::unsupported,
                   std::string(plexus::to_string(formats.front())));
    }
  });
}

TEST_CASE("a binary the driver rejects is a build error", "[devices][errors]") {
  for_each_device([](Device& device) {
    const auto format = plexus::test::compilable_format(device);
    if (!format) return;
    const std::string garbage = "this is not device code of any format";
    const auto* bytes = reinterpret_cast<const std::byte*>(garbage.data());
    plexus::KernelInfo kernel;
    kernel.name = "k";
    try {
      device.load_module(*format, {bytes, garbage.size()}, {kernel});
      FAIL("garbage was loaded as " << plexus::to_string(*format));
    } catch (const plexus::error& e) {
      INFO(e.what());
      if (e.category() == error_category::unsupported) {
        WARN(device.info().name << ": skipped: " << e.what());
        return;
      }
      CHECK(e.category() == error_category::build);
    }
  });
}
