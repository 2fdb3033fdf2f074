// UsmKind: the three kinds of unified shared memory (USM) allocation, as in SYCL.
//   device: memory of one device; the host reaches it only through copies (Queue::memcpy).
//   host:   host memory the device reads and writes in place (page-locked where the
//           backend pins it); the host uses it directly.
//   shared: memory both use directly, migrated by the driver where it must be.
// Plain enum; see Device::allocate_usm (device.hpp) and plexus/usm.hpp for the API.
#pragma once

#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

enum class UsmKind { device, host, shared };

PLEXUS_API std::string_view to_string(UsmKind kind);

}  // namespace plexus
