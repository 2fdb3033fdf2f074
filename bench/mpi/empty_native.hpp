// "bench.empty": a native function (plexus/native_function.hpp) that does nothing, for
// plexus-bench-mpi's empty remote native task; in libplexus_bench_native.so, which the
// benchmark links and its workers load (`plexus worker --native-library`).
#pragma once

#include <plexus/native_function.hpp>

namespace bench {

struct EmptyArguments {};
extern const plexus::NativeFunction<EmptyArguments> empty_native;

}  // namespace bench
