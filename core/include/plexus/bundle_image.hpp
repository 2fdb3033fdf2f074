// BundleImage: the device code a kernel bundle holds for one device: the bytes as they came
// (compiled from source, or an image of a SYCLBIN file), their format, the format the device
// loads them in, the kernels and why this image was chosen. Runtime::load takes a list of
// them (images in a format the device does not load are translated through the compiler
// component first); KernelBundle::images() gives them back (so a bundle can be written out,
// e.g. as SYCLBIN, and loaded again). Plain data, copyable; `storage` keeps `bytes` alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus {

class Device;

struct BundleImage {
  Device* device = nullptr;                 // where it is loaded
  BinaryFormat format = BinaryFormat::spirv;  // the format of `bytes`
  // The format the device loads; when it differs from `format` the runtime compiles `bytes`
  // to it (SPIR-V or LLVM bitcode inputs only) and loads the result.
  BinaryFormat load_format = BinaryFormat::spirv;
  std::string architecture;  // what the code is for (ptx, amdgcn, native); empty: any
  std::string triple;        // the target triple of IR bytes, when known (e.g. from SYCLBIN)
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> storage;  // owns `bytes` (may be null if the caller keeps them)
  // The kernels with their arguments. Empty on input: the compiler reports them (the image
  // then goes through the compiler even when the device loads its format as is).
  std::vector<KernelInfo> kernels;
  std::uint32_t group = 0;  // images of one group hold the same kernels (a SYCLBIN abstract module)
  std::string origin;       // where it came from and why it was chosen, for logs and reports
};

}  // namespace plexus
