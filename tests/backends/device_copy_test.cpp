// Device conformance, device -> device copies and staging memory: DeviceQueue::
// copy_from_device on every ordered pair of devices (contiguous, 2D and 3D regions; only
// the region changes) where the target's queue has a direct path (a device always has one
// from itself unless it shares host memory), and Device::allocate_host on every device.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "copy_layout_model.hpp"
#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::CopyLayout;
using plexus::Device;
using namespace plexus::test;  // Allocation, devices_under_test, the copy layout model

namespace {

std::vector<Device*> usable_devices() {
  std::vector<Device*> devices;
  for (const auto& each : plexus::test::devices_under_test()) {
    if (each.skip_reason.empty())
      devices.push_back(each.device);
    else
      WARN(each.label << ": skipped: " << each.skip_reason);
  }
  return devices;
}

// Copies `layout` from `source` to `target` directly if the target's queue can; checks the
// target's bytes. False when there is no direct path.
bool copy_directly(Device& source, Device& target, const CopyLayout& layout) {
  INFO(describe(layout));
  constexpr std::size_t size = 4096;
  Allocation from(source, size), to(target, size);
  const auto source_queue = source.create_queue();
  const auto target_queue = target.create_queue();
  const Bytes data = pattern(size, 3, 13), initial = pattern(size, 200, 13);
  source_queue->copy_to_device(from.get(), data.data(), CopyLayout::contiguous(0, size));
  source_queue->wait();
  target_queue->copy_to_device(to.get(), initial.data(), CopyLayout::contiguous(0, size));
  if (!target_queue->copy_from_device(to.get(), source, from.get(), layout)) {
    target_queue->wait();
    return false;
  }
  Bytes got(size, 0);
  target_queue->copy_to_host(got.data(), to.get(), CopyLayout::contiguous(0, size));
  target_queue->wait();
  Bytes expected = initial;
  apply(layout, data, expected);
  CHECK(got == expected);
  return true;
}

}  // namespace

TEST_CASE("device to device copies move exactly the region where a direct path exists",
          "[devices][memory]") {
  const auto devices = usable_devices();
  const CopyLayout layouts[] = {
      CopyLayout::contiguous(64, 1000),
      {8, 24, 5, 1, 64, 0},      // 2D
      {8, 24, 5, 3, 64, 1024},   // 3D, slices a whole number of rows apart
      {16, 20, 4, 3, 48, 1000},  // 3D, slice pitch not a multiple of the row pitch
  };
  for (Device* source : devices) {
    for (Device* target : devices) {
      INFO("from '" << source->info().name << "' to '" << target->info().name << "'");
      bool direct = true;
      for (const CopyLayout& layout : layouts)
        direct = copy_directly(*source, *target, layout) && direct;
      // A device with its own memory copies within itself directly.
      if (source == target && !source->shares_host_memory()) CHECK(direct);
      if (!direct) SUCCEED("no direct path: the runtime stages these copies through the host");
    }
  }
}

TEST_CASE("a direct copy past the end of an allocation is invalid_argument", "[devices][memory]") {
  for (Device* device : usable_devices()) {
    if (device->shares_host_memory()) continue;
    INFO("on '" << device->info().name << "'");
    Allocation from(*device, 256), to(*device, 256);
    const auto queue = device->create_queue();
    try {
      queue->copy_from_device(to.get(), *device, from.get(), CopyLayout::contiguous(200, 100));
      FAIL("no error");
    } catch (const plexus::error& e) {
      CHECK(e.category() == plexus::error_category::invalid_argument);
    }
    queue->wait();
  }
}

TEST_CASE("staging host memory is usable host memory for copies", "[devices][memory]") {
  plexus::test::for_each_device([](Device& device) {
    constexpr std::size_t size = 1 << 20;
    void* staging = device.allocate_host(size);
    REQUIRE(staging != nullptr);
    const Bytes data = pattern(size, 9, 13);
    std::memcpy(staging, data.data(), size);
    if (!device.shares_host_memory()) {  // a round trip through the device
      Allocation memory(device, size);
      const auto queue = device.create_queue();
      queue->copy_to_device(memory.get(), staging, CopyLayout::contiguous(0, size));
      Bytes back(size, 0);
      queue->copy_to_host(back.data(), memory.get(), CopyLayout::contiguous(0, size));
      queue->wait();
      CHECK(back == data);
    }
    CHECK(std::memcmp(staging, data.data(), size) == 0);
    device.deallocate_host(staging);
    device.deallocate_host(nullptr);
    try {
      device.allocate_host(0);
      FAIL("no error");
    } catch (const plexus::error& e) {
      CHECK(e.category() == plexus::error_category::invalid_argument);
    }
  });
}
