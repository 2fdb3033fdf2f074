// sycl::ext::oneapi::experimental::printf: OpenCL's printf (the format in the constant
// address space, as a string literal is here). Available where the target has printf: the
// host device and OpenCL devices; PTX and AMDGCN have none (libclc 15), and a kernel that
// calls it fails to build there naming printf.
#pragma once

namespace sycl {
namespace ext::oneapi::experimental {

template <typename... Args>
int printf(const __constant char* format, Args... args) {
  return ::printf(format, args...);
}

}  // namespace ext::oneapi::experimental
}  // namespace sycl
