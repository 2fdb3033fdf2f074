// Kernel bundles from and to SYCLBIN files.
//
//   plexus::KernelBundle b = plexus::syclbin::load_bundle(rt, "kernels.syclbin");
//   std::cout << b.description();                 // per device: the image chosen and why
//   plexus::syclbin::save_bundle(rt.build(src), "mine.syclbin");   // persist, load later
//
// load_bundle picks, for every device of the runtime, one image per abstract module
// (image_choice.hpp: native for the device's architecture, else IR the device loads, else IR
// the compiler translates; the `state` metadata is honoured as described there), loads them
// through Runtime::load (the program cache, keyed by the image's content hash and the
// device) and logs each choice at info level. Devices no image fits are skipped (logged);
// when none fits: plexus::error(unsupported) listing what the file offers and, per device,
// what it loads. Every kernel the file names ([SYCL/kernel names]) is reachable through
// bundle.kernel(name); one that no loaded image defines is an invalid_argument error.
// Kernel arguments come from "[Plexus/kernel info]" (kernel_metadata.hpp) or, without it,
// from the compiler (IR images only). Reader errors (truncated, corrupt) propagate as the
// reader throws them, prefixed with the file name.
//
// to_syclbin writes a bundle's images (KernelBundle::images(), built from source or loaded)
// as one abstract module per group, state executable, each distinct image once: SPIR-V,
// PTX, SPIR bitcode and host bitcode as IR modules, amdgcn and native code as native images
// for their architecture; kernel names and kernel info in each module's metadata.
// Thread-safety: as Runtime::load; the functions keep no state.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plexus/kernel_bundle.hpp"
#include "plexus/runtime.hpp"
#include "plexus/syclbin/export.hpp"
#include "plexus/syclbin/image_choice.hpp"
#include "plexus/syclbin/syclbin.hpp"

namespace plexus::syclbin {

PLEXUS_SYCLBIN_API KernelBundle load_bundle(Runtime& runtime, const std::filesystem::path& path);
// Copies `file` (the bundle's images() refer to the copy).
PLEXUS_SYCLBIN_API KernelBundle load_bundle(Runtime& runtime, Bytes file);
// `name` names the file in messages.
PLEXUS_SYCLBIN_API KernelBundle load_bundle(Runtime& runtime, const Syclbin& file,
                                            const std::string& name = "the SYCLBIN file");

// The choice for each of the runtime's devices (runtime.devices() order), for reports such
// as `plexus syclbin plan`.
PLEXUS_SYCLBIN_API std::vector<DevicePlan> plan_for(const Runtime& runtime, const Syclbin& file);

PLEXUS_SYCLBIN_API Syclbin to_syclbin(const KernelBundle& bundle);
// Writes to_syclbin(bundle) (wrapped as DPC++ writes it).
PLEXUS_SYCLBIN_API void save_bundle(const KernelBundle& bundle, const std::filesystem::path& path);

}  // namespace plexus::syclbin
