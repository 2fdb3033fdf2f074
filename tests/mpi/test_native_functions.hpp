// Native functions for the mpi tests (native_function.hpp), in a shared library that rank 0's
// test program links and every worker loads (`plexus worker --native-library`), as an
// application's would be. All for the host backend.
#pragma once

#include <cstddef>

#include "plexus/native_function.hpp"

namespace plexus_test {

// "test.fill": element i of accessor 0 (int) set to first + i, for i < count; refused
// (InteropHandle::require_memory) when count ints do not fit accessor 0's memory.
struct FillArgs {
  std::size_t count;
  int first;
};
extern const plexus::NativeFunction<FillArgs> fill_ints;

// "test.fail" returns `code`; "test.throw" throws std::runtime_error("thrown on purpose, code
// N").
struct FailArgs {
  int code;
};
extern const plexus::NativeFunction<FailArgs> fail_with_code;
extern const plexus::NativeFunction<FailArgs> throw_error;

}  // namespace plexus_test
