#include "native_tiles.hpp"

#include <plexus/error.hpp>

#include "host_blas.hpp"

namespace cholesky {

namespace {

void tile(plexus::InteropHandle& handle, const HostTileCall& call) {
  const int info = host_blas::run(call.op, call.layout, handle.native_memory<double*>(call.target));
  if (info != 0)
    throw plexus::error(plexus::error_category::device,
                        potrf_failure("LAPACKE_dpotrf", call.op.k, info));
}

void resident(plexus::InteropHandle&, const NoArguments&) {}

}  // namespace

const plexus::NativeFunction<HostTileCall> host_tile{"cholesky.host_tile", "host", &tile};
const plexus::NativeFunction<NoArguments> host_resident{"cholesky.host_resident", "host",
                                                        &resident};

}  // namespace cholesky
