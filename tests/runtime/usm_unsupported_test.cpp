// A device without USM (the usm_less test backend): every malloc_* is
// plexus::error(unsupported) naming the device and the kind; queue selection by type finds
// it as the accelerator.
#include <catch2/catch.hpp>

#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::require_error;

TEST_CASE("malloc_shared (and the other kinds) on a device without USM names the device") {
  const std::string dir = plexus::test::test_plugin_dir("usm-less").string();
  auto rt = plexus::test::make_runtime({"inorder", "whole"}, "\"host\", \"usm_less\"",
                                       "[plugins]\npaths = [\"" + dir + "\"]\n");
  plexus::Queue bare = rt->queue(plexus::DeviceType::accelerator);
  REQUIRE(bare.device().info().name == "bare test accelerator");
  CHECK_FALSE(bare.device().supports_usm(plexus::UsmKind::shared));
  require_error([&] { (void)plexus::malloc_shared(64, bare); }, error_category::unsupported,
                "malloc_shared: device 'bare test accelerator' does not support USM shared "
                "allocations");
  require_error([&] { (void)plexus::malloc_device<float>(16, bare); }, error_category::unsupported,
                "device 'bare test accelerator' does not support USM "
                "device allocations");
  // What the USM tests do with such a device (an OpenCL device without SVM): skip it.
  CHECK_FALSE(plexus::test::has_usm_device_memory(bare.device(), *rt));
  CHECK(plexus::test::has_usm_device_memory(*rt->devices().front(), *rt));
  require_error([&] { (void)plexus::malloc_host(8, bare); }, error_category::unsupported,
                "USM host");
  // The host device has all three kinds, host and shared being the same host memory.
  plexus::Queue host = rt->queue(plexus::DeviceType::cpu);
  void* shared = plexus::malloc_shared(64, host);
  CHECK(plexus::get_pointer_type(shared, host) == plexus::UsmKind::shared);
  static_cast<char*>(shared)[63] = 1;  // the host uses it in place
  plexus::free(shared, host);
}
