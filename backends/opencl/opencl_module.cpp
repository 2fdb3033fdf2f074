#include "opencl_module.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "opencl_device.hpp"
#include "opencl_query.hpp"
#include "plexus/error.hpp"

namespace plexus::opencl {
namespace {

std::string where(const OpenclDevice& device, BinaryFormat format) {
  return std::string(to_string(format)) + " module on OpenCL device '" + device.info().name + "'";
}

cl_program create_program(const OpenclDevice& device, BinaryFormat format,
                          std::span<const std::byte> binary) {
  cl_context context = device.context();
  cl_device_id id = device.handle();
  cl_int code = CL_SUCCESS;
  cl_program program = nullptr;
  const char* call = "";
  switch (format) {
    case BinaryFormat::spirv:
      call = "clCreateProgramWithIL";
      program = clCreateProgramWithIL(context, binary.data(), binary.size(), &code);
      break;
    case BinaryFormat::spir_bitcode:
    case BinaryFormat::ptx: {
      call = "clCreateProgramWithBinary";
      const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
      const std::size_t size = binary.size();
      cl_int binary_status = CL_SUCCESS;
      program = clCreateProgramWithBinary(context, 1, &id, &size, &bytes, &binary_status, &code);
      if (code == CL_SUCCESS && binary_status != CL_SUCCESS) code = binary_status;
      break;
    }
    case BinaryFormat::opencl_c_source: {
      call = "clCreateProgramWithSource";
      const char* text = reinterpret_cast<const char*>(binary.data());
      const std::size_t size = binary.size();
      program = clCreateProgramWithSource(context, 1, &text, &size, &code);
      break;
    }
    default:
      throw error(error_category::unsupported,
                  "the opencl backend cannot load " + std::string(to_string(format)) + " code");
  }
  if (code != CL_SUCCESS) {
    if (program) clReleaseProgram(program);
    const error_category category = code == CL_INVALID_BINARY || code == CL_INVALID_VALUE
                                        ? error_category::build
                                        : error_category::device;
    throw error(category, std::string(call) + " for a " + where(device, format) +
                              " failed: " + error_name(code));
  }
  return program;
}

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
          CL_SUCCESS ||
      size == 0)
    return "(the driver gave no build log)";
  std::vector<char> text(size + 1, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, text.data(), nullptr);
  std::string log(text.data());
  return log.empty() ? "(the driver gave an empty build log)" : log;
}

const char* build_options(BinaryFormat format) {
  return format == BinaryFormat::spir_bitcode ? "-x spir -spir-std=1.2" : "";
}

std::string kernel_names(const std::vector<KernelInfo>& kernels) {
  std::string text;
  for (const auto& kernel : kernels) text += (text.empty() ? "'" : ", '") + kernel.name + "'";
  return text.empty() ? "none" : text;
}

}  // namespace

OpenclModule::OpenclModule(OpenclDevice& device, BinaryFormat format,
                           std::span<const std::byte> binary,
                           const std::vector<KernelInfo>& kernels)
    : device_(device), program_(create_program(device, format, binary)), infos_(kernels) {
  cl_device_id id = device.handle();
  const cl_int code = clBuildProgram(program_.get(), 1, &id, build_options(format), nullptr, nullptr);
  if (code != CL_SUCCESS)
    throw error(code == CL_BUILD_PROGRAM_FAILURE || code == CL_INVALID_BINARY
                    ? error_category::build
                    : error_category::device,
                "clBuildProgram of a " + where(device, format) + " failed: " + error_name(code) +
                    "; build log:\n" + build_log(program_.get(), id));
  for (const KernelInfo& info : infos_) {
    cl_int status = CL_SUCCESS;
    KernelHandle kernel(clCreateKernel(program_.get(), info.name.c_str(), &status));
    if (status != CL_SUCCESS)
      throw error(error_category::build, "clCreateKernel('" + info.name + "') in a " +
                                             where(device, format) + " failed: " +
                                             error_name(status) +
                                             " (the compiler reported a kernel the program "
                                             "does not define)");
    std::size_t work_group_size = 0;
    status = clGetKernelWorkGroupInfo(kernel.get(), id, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(work_group_size), &work_group_size, nullptr);
    if (status != CL_SUCCESS)
      throw error(error_category::device, "clGetKernelWorkGroupInfo('" + info.name +
                                              "', CL_KERNEL_WORK_GROUP_SIZE) in a " +
                                              where(device, format) + " failed: " +
                                              error_name(status));
    kernels_.push_back(std::make_unique<OpenclKernel>(info, std::move(kernel), device, format,
                                                      device.info().name, work_group_size));
  }
}

OpenclModule::~OpenclModule() {
  kernels_.clear();
  program_.reset();
}

Device& OpenclModule::device() const { return device_; }

const DeviceKernel& OpenclModule::kernel(const std::string& name) const {
  for (const auto& kernel : kernels_)
    if (kernel->info().name == name) return *kernel;
  throw error(error_category::invalid_argument,
              "no kernel '" + name + "' in this module on OpenCL device '" + device_.info().name +
                  "'; its kernels: " + kernel_names(infos_));
}

bool OpenclKernel::argument_changed(std::size_t index, const KernelArgument& argument) const {
  if (set_.size() <= index) set_.resize(index + 1);
  const void* data = argument.kind == KernelArgumentKind::allocation ? &argument.allocation
                     : argument.kind == KernelArgumentKind::scalar ? argument.value
                                                                   : nullptr;
  const std::size_t size = argument.kind == KernelArgumentKind::allocation ? sizeof(void*)
                           : argument.kind == KernelArgumentKind::scalar ? argument.size
                                                                         : 0;
  const auto* begin = static_cast<const std::byte*>(data);
  std::optional<SetArgument>& last = set_[index];
  if (last && last->kind == argument.kind && last->usm == argument.usm &&
      last->size == argument.size && std::equal(begin, begin + size, last->bytes.begin(),
                                                last->bytes.end()))
    return false;
  if (!last) last.emplace();
  last->kind = argument.kind;
  last->usm = argument.usm;
  last->size = argument.size;
  last->bytes.assign(begin, begin + size);
  return true;
}

void OpenclKernel::forget_arguments() const { set_.clear(); }

}  // namespace plexus::opencl
