// plexus/plexus.hpp: the whole application API in one include.
//   #include <plexus/plexus.hpp>
//   plexus::Runtime rt; auto q = rt.queue(); plexus::Buffer<float> b(data, n); ...
#pragma once

#include "plexus/accessor.hpp"
#include "plexus/build_properties.hpp"
#include "plexus/buffer.hpp"
#include "plexus/error.hpp"
#include "plexus/event.hpp"
#include "plexus/graph.hpp"
#include "plexus/graph_parameter.hpp"
#include "plexus/handler.hpp"
#include "plexus/host_view.hpp"
#include "plexus/interop.hpp"
#include "plexus/kernel_bundle.hpp"
#include "plexus/queue.hpp"
#include "plexus/range.hpp"
#include "plexus/runtime.hpp"
#include "plexus/sycl_names.hpp"
#include "plexus/usm.hpp"
