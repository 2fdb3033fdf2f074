#include "test_native_functions.hpp"

#include <stdexcept>
#include <string>

namespace plexus_test {

namespace {

int fill(plexus::InteropHandle& handle, const FillArgs& args) {
  handle.require_memory(0, args.count, sizeof(int), "test.fill of " + std::to_string(args.count) + " ints");
  int* values = handle.native_memory<int*>(0);
  for (std::size_t i = 0; i < args.count; ++i) values[i] = args.first + static_cast<int>(i);
  return 0;
}

int fail(plexus::InteropHandle&, const FailArgs& args) { return args.code; }

void throw_on_purpose(plexus::InteropHandle&, const FailArgs& args) {
  throw std::runtime_error("thrown on purpose, code " + std::to_string(args.code));
}

}  // namespace

const plexus::NativeFunction<FillArgs> fill_ints{"test.fill", "host", &fill};
const plexus::NativeFunction<FailArgs> fail_with_code{"test.fail", "host", &fail};
const plexus::NativeFunction<FailArgs> throw_error{"test.throw", "host", &throw_on_purpose};

}  // namespace plexus_test
