// Runs spir64 bitcode (the `vadd` kernel of vector_add_source) on PoCL through the OpenCL
// ICD loader, as the OpenCL backend will: clCreateProgramWithBinary, "-x spir
// -spir-std=1.2", a vector add of 1024 floats, results compared on the host.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#ifdef PLEXUS_TEST_HAVE_OPENCL
#include <CL/cl.h>
#endif

namespace plexus::test {

inline void run_vector_add_on_pocl(const std::vector<std::byte>& spir_bitcode) {
  namespace fs = std::filesystem;
#ifndef PLEXUS_TEST_HAVE_OPENCL
  WARN("built without OpenCL: the bitcode was not run");
#else
  cl_uint platform_count = 0;
  clGetPlatformIDs(0, nullptr, &platform_count);
  std::vector<cl_platform_id> platforms(platform_count);
  if (platform_count > 0) clGetPlatformIDs(platform_count, platforms.data(), nullptr);
  cl_platform_id pocl = nullptr;
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find("Portable Computing Language") != std::string::npos) pocl = platform;
  }
  if (!pocl) {
    if (fs::exists("/etc/OpenCL/vendors/pocl.icd") && !std::getenv("OCL_ICD_VENDORS"))
      FAIL("PoCL is installed but the ICD loader does not list it");
    WARN("no PoCL platform: the bitcode was not run");
    return;
  }
  cl_device_id device = nullptr;
  REQUIRE(clGetDeviceIDs(pocl, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS);
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  REQUIRE(status == CL_SUCCESS);
  const auto* binary = reinterpret_cast<const unsigned char*>(spir_bitcode.data());
  const std::size_t binary_size = spir_bitcode.size();
  cl_int binary_status = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &binary_size, &binary,
                                                 &binary_status, &status);
  REQUIRE(status == CL_SUCCESS);
  status = clBuildProgram(program, 1, &device, "-x spir -spir-std=1.2", nullptr, nullptr);
  if (status != CL_SUCCESS) {
    char build_log[8192] = {};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof build_log, build_log,
                          nullptr);
    FAIL("clBuildProgram: " << status << ": " << build_log);
  }
  cl_kernel kernel = clCreateKernel(program, "vadd", &status);
  REQUIRE(status == CL_SUCCESS);
  constexpr std::size_t n = 1024;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i) + 3.0f;
  }
  cl_mem buffers[3];
  buffers[0] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                              a.data(), &status);
  buffers[1] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                              b.data(), &status);
  buffers[2] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  for (cl_uint i = 0; i < 3; ++i)
    REQUIRE(clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, buffers[2], CL_TRUE, 0, n * sizeof(float), c.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) ++wrong;
  CHECK(wrong == 0);
  for (cl_mem buffer : buffers) clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
#endif
}

}  // namespace plexus::test
