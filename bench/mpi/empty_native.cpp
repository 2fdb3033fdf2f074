#include "empty_native.hpp"

namespace bench {

namespace {
void nothing(plexus::InteropHandle&, const EmptyArguments&) {}
}  // namespace

const plexus::NativeFunction<EmptyArguments> empty_native{"bench.empty", "host", &nothing};

}  // namespace bench
