#include "fusion_input.hpp"

#include "bundle_state.hpp"

namespace plexus::detail {

namespace {

// Formats the fusion engine takes as a bundle keeps them.
bool fusable_as_is(BinaryFormat format) {
  return format == BinaryFormat::llvm_bitcode || format == BinaryFormat::spir_bitcode ||
         format == BinaryFormat::spirv;
}

}  // namespace

FusionInput fusion_input(ProgramCache& programs, Compiler* compiler, const BundleState& bundle,
                         const BundleImage& image, const std::string& kernel_name) {
  FusionInput input;
  if (fusable_as_is(image.format)) {
    input.format = image.format;
    input.binary = image.bytes;
    return input;
  }
  const std::string native(to_string(image.format));
  if (bundle.source.empty()) {
    input.reason = "kernel '" + kernel_name + "' was loaded as " + native +
                   " without its LLVM IR (fusing " + native +
                   " needs the kernels' IR: build the bundle from source, or load an IR image)";
    return input;
  }
  if (!compiler) {
    input.reason = "fusing " + native +
                   " needs the kernels' LLVM IR from the compiler and no "
                   "compiler is selected";
    return input;
  }
  // The key of the bundle's program for this image, asking for its IR: compiled for the
  // image's architecture, as the fused kernel is (FusionRequest::target_architecture).
  ProgramKey key{source_hash(bundle.source), bundle.options, image.format,
                 image.architecture,         bundle.source,  /*emit_ir=*/true};
  key.properties = bundle.properties;
  key.build = bundle.build;
  input.owner = programs.compile(*compiler, key, bundle.option_list);
  input.format = input.owner->format;
  input.binary = input.owner->binary;
  return input;
}

}  // namespace plexus::detail
