// Which image of a SYCLBIN file each device runs: per device and abstract module, the best of
//  1. a native image for the device's architecture, in a format the device loads;
//  2. an IR module the device loads as it is (the device's format order decides between
//     several), LLVM bitcode only when its triple is the device's (host) or SPIR;
//  3. an IR module the compiler translates to a format the device loads (SPIR-V or SPIR
//     bitcode -> SPIR-V / SPIR bitcode; host bitcode -> host bitcode; the clang component
//     keeps a module's triple family, so SPIR-V does not become host code).
// The file's `state` changes this: input (0) means not yet compiled for any device, so
// native images are skipped and every IR module goes through the compiler (step 3, also for
// a format the device loads as is); object (1) means compiled but not linked: modules that
// import symbols ([SYCL/imported symbols]) are refused (Plexus does not link SYCLBIN objects),
// the others load as executable; executable (2), or no state, loads as chosen. A state
// outside 0..2 is an invalid_argument error.
// Pure functions over the parsed file and device descriptions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plexus/binary_format.hpp"
#include "plexus/device_info.hpp"
#include "plexus/syclbin/export.hpp"
#include "plexus/syclbin/syclbin.hpp"

namespace plexus::syclbin {

struct ImageChoice {
  std::size_t module = 0;  // abstract module index
  bool native = false;     // a native image (else an IR module)
  std::size_t index = 0;   // in the module's native_images or ir_modules
  BinaryFormat format = BinaryFormat::spirv;       // of the image's bytes
  BinaryFormat load_format = BinaryFormat::spirv;  // what the device loads
  bool compile = false;    // goes through the compiler (translation, or state input)
  std::string reason;      // "abstract module 0: IR module 1 (SPIR-V, spir64-...) ..."
};

struct DevicePlan {
  std::size_t device = 0;            // index in the devices given
  std::vector<ImageChoice> choices;  // one per abstract module when the device fits
  std::string failure;               // non-empty: why no image fits (the device is skipped)
};

// The format of an IR module's or native image's bytes; nullopt for an unknown IR type.
PLEXUS_SYCLBIN_API std::optional<BinaryFormat> format_of(const IRModule& module);
PLEXUS_SYCLBIN_API BinaryFormat format_of(const NativeImage& image);

// One plan per device. `compiler_targets`: what the runtime's compiler produces (empty: no
// compiler, so nothing is translated). Throws invalid_argument for a bad `state`.
PLEXUS_SYCLBIN_API std::vector<DevicePlan> plan_images(
    const Syclbin& file, const std::vector<DeviceInfo>& devices,
    const std::vector<BinaryFormat>& compiler_targets);

// What the file offers, for error messages: "abstract module 0: IR SPIR-V (spir64-...),
// IR PTX (nvptx64-nvidia-cuda); native x86_64 (...)".
PLEXUS_SYCLBIN_API std::string offered_images(const Syclbin& file);

}  // namespace plexus::syclbin
