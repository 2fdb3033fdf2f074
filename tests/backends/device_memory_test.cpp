// Device conformance, memory: allocation and copies (contiguous and 2D/3D regions) on every
// device of every backend; bytes outside a copied region must stay untouched.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "copy_layout_model.hpp"
#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::CopyLayout;
using plexus::Device;
using namespace plexus::test;  // Allocation, for_each_device, the copy layout model

namespace {

// Fills the device with `initial`, copies `layout` of `source` to it, reads everything back
// and compares with the model; then copies `layout` back into a host buffer of `fill` and
// checks that only the region changed.
void round_trip(Device& device, std::size_t size, const CopyLayout& layout) {
  INFO(describe(layout));
  Allocation memory(device, size);
  const auto queue = device.create_queue();
  const Bytes initial = pattern(size, 1), source = pattern(size, 100);
  queue->copy_to_device(memory.get(), initial.data(), CopyLayout::contiguous(0, size));
  queue->copy_to_device(memory.get(), source.data(), layout);
  Bytes device_bytes(size, 0);
  queue->copy_to_host(device_bytes.data(), memory.get(), CopyLayout::contiguous(0, size));
  queue->wait();
  Bytes expected = initial;
  apply(layout, source, expected);
  CHECK(device_bytes == expected);

  Bytes back(size, 0xEE);
  queue->copy_to_host(back.data(), memory.get(), layout);
  queue->wait();
  Bytes expected_back(size, 0xEE);
  apply(layout, expected, expected_back);
  CHECK(back == expected_back);
}

}  // namespace

TEST_CASE("devices allocate and release memory, and zero bytes is refused", "[devices][memory]") {
  for_each_device([](Device& device) {
    void* small = device.allocate(1);
    void* large = device.allocate(8 << 20);
    CHECK(small != nullptr);
    CHECK(large != nullptr);
    CHECK(small != large);
    device.deallocate(small);
    device.deallocate(large);
    device.deallocate(nullptr);
    try {
      device.allocate(0);
      FAIL("allocate(0) did not throw");
    } catch (const plexus::error& e) {
      CHECK(e.category() == plexus::error_category::invalid_argument);
      CHECK_THAT(e.what(), Catch::Contains("0 bytes"));
    }
  });
}

TEST_CASE("contiguous copies round-trip and leave other bytes alone", "[devices][memory]") {
  for_each_device([](Device& device) {
    round_trip(device, 4096, CopyLayout::contiguous(0, 4096));
    round_trip(device, 4096, CopyLayout::contiguous(100, 200));
    round_trip(device, 4096, CopyLayout::contiguous(4095, 1));
  });
}

TEST_CASE("2D region copies touch only the region", "[devices][memory]") {
  for_each_device([](Device& device) {
    // 5 rows of 16 bytes in rows 64 bytes apart, starting at row 2, byte 8.
    round_trip(device, 1024, CopyLayout{2 * 64 + 8, 16, 5, 1, 64, 0});
    // Rows that fill their pitch exactly (a contiguous block written as rows).
    round_trip(device, 1024, CopyLayout{64, 32, 4, 1, 32, 0});
    // An offset past the first row pitch with a row that wraps into the next one.
    round_trip(device, 1024, CopyLayout{60, 16, 3, 1, 40, 0});
  });
}

TEST_CASE("3D region copies touch only the region", "[devices][memory]") {
  for_each_device([](Device& device) {
    // slice_pitch a multiple of row_pitch: one 3D copy.
    round_trip(device, 8192, CopyLayout{3 * 32 + 4, 12, 4, 3, 32, 8 * 32});
    // slice_pitch not a multiple of row_pitch.
    round_trip(device, 8192, CopyLayout{40, 10, 3, 4, 24, 24 * 3 + 5});
    // One row per slice.
    round_trip(device, 8192, CopyLayout{8, 20, 1, 5, 20, 100});
  });
}

TEST_CASE("copies outside the allocation or with bad pitches are refused",
          "[devices][memory][errors]") {
  for_each_device([](Device& device) {
    Allocation memory(device, 256);
    const auto queue = device.create_queue();
    Bytes host(1024, 0);
    auto refused = [&](const CopyLayout& layout, const char* words) {
      try {
        queue->copy_to_device(memory.get(), host.data(), layout);
        FAIL("the copy was accepted");
      } catch (const plexus::error& e) {
        CHECK(e.category() == plexus::error_category::invalid_argument);
        CHECK_THAT(e.what(), Catch::Contains(words));
      }
    };
    if (!device.shares_host_memory())
      refused(CopyLayout::contiguous(200, 100), "past the allocation");
    refused(CopyLayout{0, 16, 4, 1, 8, 0}, "row_pitch");
    refused(CopyLayout{0, 8, 2, 3, 8, 8}, "slice_pitch");
    refused(CopyLayout{0, 0, 1, 1, 0, 0}, "empty region");
    queue->wait();  // nothing was enqueued: nothing fails
  });
}
