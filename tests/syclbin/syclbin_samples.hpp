// Sample SYCLBIN objects and byte helpers shared by the SYCLBIN tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "plexus/syclbin/syclbin.hpp"

namespace plexus::test {

namespace sb = plexus::syclbin;

inline std::vector<std::byte> bytes_of(const std::string& text) {
  const auto* begin = reinterpret_cast<const std::byte*>(text.data());
  return {begin, begin + text.size()};
}

inline std::uint64_t get_le(const std::vector<std::byte>& bytes, std::size_t offset,
                            std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value |= std::uint64_t(bytes.at(offset + i)) << (8 * i);
  return value;
}

inline void put_le(std::vector<std::byte>& bytes, std::size_t offset, std::uint64_t value,
                   std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) bytes.at(offset + i) = std::byte((value >> (8 * i)) & 0xff);
}

inline void append_le(std::vector<std::byte>& bytes, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) bytes.push_back(std::byte((value >> (8 * i)) & 0xff));
}

// Two abstract modules: the first with two IR modules and a native image, the second with
// one IR module; odd payload sizes, so that padding matters.
inline sb::Syclbin sample_syclbin() {
  sb::Syclbin syclbin;
  syclbin.set_state(sb::State::executable);
  sb::AbstractModule& first = syclbin.add_abstract_module({"saxpy", "other"});
  first.metadata.set("SYCL/device requirements", "aspects",
                     sb::ByteArray::from_bytes(bytes_of(std::string("\x01\x00\x00\x00", 4))));
  first.ir_modules.push_back(sb::Syclbin::make_ir_module(
      sb::IRType::spirv, "spir64-unknown-unknown", syclbin.keep(bytes_of("\x03\x02\x23\x07spirv!"))));
  first.ir_modules.push_back(sb::Syclbin::make_ir_module(
      sb::IRType::ptx, "nvptx64-nvidia-cuda", syclbin.keep(bytes_of(".version 7.0\n"))));
  first.native_images.push_back(sb::Syclbin::make_native_image(
      "sm_80", "nvptx64-nvidia-cuda", syclbin.keep(bytes_of("cubin bytes"))));
  sb::AbstractModule& second = syclbin.add_abstract_module({"k"});
  second.ir_modules.push_back(sb::Syclbin::make_ir_module(
      sb::IRType::llvm_bitcode, "x86_64-pc-linux-gnu", syclbin.keep(bytes_of("BC\xc0\xde"))));
  return syclbin;
}

// The smallest interesting file: one module, one 4-byte IR module.
inline sb::Syclbin small_syclbin() {
  sb::Syclbin syclbin;
  syclbin.set_state(sb::State::input);
  sb::AbstractModule& module = syclbin.add_abstract_module({"k"});
  module.ir_modules.push_back(sb::Syclbin::make_ir_module(
      sb::IRType::spirv, "spir64", syclbin.keep(bytes_of("\x03\x02\x23\x07"))));
  module.native_images.push_back(
      sb::Syclbin::make_native_image("gfx90a", "amdgcn-amd-amdhsa", syclbin.keep(bytes_of("co"))));
  return syclbin;
}

}  // namespace plexus::test
