// fusion_input: a held kernel's code as the fusion engine takes it (internal to the core).
// The engine fuses host bitcode, SPIR bitcode or SPIR-V as a bundle keeps them; a native
// image (PTX, amdgcn) is fused from the kernels' LLVM IR for that target instead
// (CompileRequest::emit_ir: the frontend's output before device libraries and the back
// end). That IR is made lazily, the first time a bundle built from source is fused on such
// a device: its source and options are compiled again with emit_ir, once per key, in the
// program cache's programs level (ProgramKey::emit_ir). A bundle loaded from prebuilt
// native code keeps no IR: no input, with the reason.
// Thread-safety: as the program cache (any thread).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "plexus/binary_format.hpp"
#include "plexus/bundle_image.hpp"
#include "program_cache.hpp"

namespace plexus {
class Compiler;
}

namespace plexus::detail {

class BundleState;

struct FusionInput {
  BinaryFormat format = BinaryFormat::llvm_bitcode;
  std::span<const std::byte> binary;             // kept alive by `owner` or the image
  std::shared_ptr<const CompiledProgram> owner;  // the IR compiled for fusion, if any
  std::string reason;                            // why there is no input (binary empty)
};

// The code of kernel `kernel_name` of `bundle` in `image` (one of the bundle's images) as
// fusion input; `compiler` may be null (then native images have no input).
FusionInput fusion_input(ProgramCache& programs, Compiler* compiler, const BundleState& bundle,
                         const BundleImage& image, const std::string& kernel_name);

}  // namespace plexus::detail
