#include "opencl_platform_context.hpp"

#include "opencl_query.hpp"
#include "plexus/log.hpp"

namespace plexus::opencl {

cl_context PlatformContext::get() const {
  std::call_once(once_, [this] {
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
    cl_int code = CL_SUCCESS;
    cl_context context = clCreateContext(properties, static_cast<cl_uint>(devices_.size()),
                                         devices_.data(), nullptr, nullptr, &code);
    if (code == CL_SUCCESS) {
      context_.reset(context);
    } else {
      logger().debug(
          "opencl backend: no context shared by the {} devices of a platform ({}): "
          "each device gets its own, and copies between them go through the host",
          devices_.size(), error_name(code));
    }
  });
  return context_.get();
}

}  // namespace plexus::opencl
