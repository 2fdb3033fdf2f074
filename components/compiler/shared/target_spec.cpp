#include "target_spec.hpp"

#include <llvm/ADT/Triple.h>
#include <llvm/Support/Host.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "plexus/error.hpp"
#include "spirv_version.hpp"

namespace plexus::compiler_shared {

namespace {

int sm_number(std::string_view sm) {
  int number = 0;
  if (sm.starts_with("sm_")) std::from_chars(sm.data() + 3, sm.data() + sm.size(), number);
  return number;
}

// LLVM 15's NVPTX stops at sm_86 / PTX 7.5: a newer NVIDIA architecture (an H100's sm_90,
// Blackwell's sm_100/sm_120) gets sm_86 PTX, which its driver compiles forward; any other
// name (sm_99 is none) is LLVM's to judge.
std::string nvptx_cpu(std::string_view architecture) {
  if (architecture.empty()) return "sm_80";
  constexpr std::array newer = {87, 89, 90, 100, 101, 103, 110, 120, 121};
  const int number = sm_number(architecture);
  return std::find(newer.begin(), newer.end(), number) != newer.end() ? "sm_86"
                                                                        : std::string(architecture);
}

// The PTX ISA version an sm_XX needs.
std::string ptx_feature_for(std::string_view sm) {
  const int number = sm_number(sm);
  if (number >= 86) return "+ptx71";
  if (number >= 80) return "+ptx70";
  if (number >= 75) return "+ptx63";
  if (number >= 72) return "+ptx61";
  return "+ptx60";
}

}  // namespace

TargetSpec target_spec_for(BinaryFormat format, std::string_view architecture,
                           std::string_view compiler) {
  TargetSpec spec;
  spec.format = format;
  switch (format) {
    case BinaryFormat::spirv: {
      DiagnosticLog log;
      const std::optional<std::uint32_t> limit = spirv_version_limit(architecture, log);
      if (!limit) throw error(error_category::invalid_argument, log.diagnostics().front().message);
      spec.spirv_version_limit = *limit;
      spec.triple = "spir64-unknown-unknown";
      spec.typed_pointers = true;
      return spec;
    }
    case BinaryFormat::spir_bitcode:
      spec.triple = "spir64-unknown-unknown";
      spec.typed_pointers = true;
      return spec;
    case BinaryFormat::ptx:
      // NVCL, not CUDA: kernel pointer parameters carry their state space (".ptr .global"),
      // which NVIDIA's OpenCL driver needs (CUDA-triple PTX fails there with
      // CL_OUT_OF_RESOURCES at launch); the CUDA driver runs this PTX as well.
      spec.triple = "nvptx64-nvidia-nvcl";
      spec.cpu = nvptx_cpu(architecture);
      spec.features = {ptx_feature_for(spec.cpu)};
      spec.libclc_file = "nvptx64--nvidiacl.bc";
      return spec;
    case BinaryFormat::amdgcn:
      spec.triple = "amdgcn-amd-amdhsa";
      spec.cpu = architecture.empty() ? "gfx906" : std::string(architecture);
      spec.libclc_file = "amdgcn--amdhsa.bc";
      return spec;
    case BinaryFormat::llvm_bitcode: {
      llvm::Triple host(llvm::sys::getProcessTriple());
      spec.triple = host.str();
      spec.cpu = architecture.empty() ? std::string() : std::string(architecture);
      spec.fake_address_space_map = true;
      // The host device library's sub-group shuffles (backends/host/device_library).
      spec.opencl_extensions = {"cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative"};
      return spec;
    }
    case BinaryFormat::opencl_c_source:
    case BinaryFormat::native:
      break;
  }
  throw error(error_category::unsupported,
              "compiler '" + std::string(compiler) + "' cannot produce the binary format '" +
                  std::string(to_string(format)) +
                  "' (it produces spirv, spir-bitcode, ptx, llvm-bitcode and amdgcn)");
}

bool triple_matches(const TargetSpec& spec, std::string_view triple) {
  if (triple.empty()) return true;  // no triple: take the target's
  const llvm::Triple have{llvm::StringRef(triple.data(), triple.size())};
  const llvm::Triple want(spec.triple);
  if (spec.format == BinaryFormat::spirv || spec.format == BinaryFormat::spir_bitcode)
    return have.getArch() == llvm::Triple::spir64 || have.getArch() == llvm::Triple::spir;
  return have.getArch() == want.getArch();
}

}  // namespace plexus::compiler_shared
