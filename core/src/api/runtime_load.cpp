// Runtime::load: prebuilt device code (e.g. the images a SYCLBIN file holds) on each device,
// through the program cache; images in a format the device does not load are compiled to
// one it does first.
#include <algorithm>
#include <optional>
#include <set>

#include "bundle_state.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/runtime.hpp"
#include "runtime_state.hpp"

namespace plexus {

namespace {

// The compiler input language of `format`, if the compiler takes it.
std::optional<SourceLanguage> input_language(BinaryFormat format) {
  switch (format) {
    case BinaryFormat::spirv: return SourceLanguage::spirv;
    case BinaryFormat::llvm_bitcode:
    case BinaryFormat::spir_bitcode: return SourceLanguage::llvm_bitcode;
    default: return std::nullopt;
  }
}

std::string describe(const BundleImage& image) {
  std::string text = std::string(to_string(image.format));
  if (!image.origin.empty()) text += " (" + image.origin + ")";
  return text;
}

// The compiled (or translated) program behind `image`, from the program cache.
std::shared_ptr<const detail::CompiledProgram> program_of(detail::RuntimeState& runtime,
                                                          const BundleImage& image,
                                                          const detail::ProgramKey& key) {
  const bool translate = image.format != image.load_format || image.kernels.empty();
  if (!translate) {
    auto program = std::make_shared<detail::CompiledProgram>();
    program->binary.assign(image.bytes.begin(), image.bytes.end());
    program->format = image.format;
    program->kernels = image.kernels;
    return program;
  }
  const auto language = input_language(image.format);
  if (!language) {
    throw error(error_category::unsupported,
                image.format == image.load_format
                    ? "the " + describe(image) + " image lists no kernels and the compiler "
                          "cannot inspect " + std::string(to_string(image.format))
                    : "a " + describe(image) + " image cannot be translated to " +
                          std::string(to_string(image.load_format)));
  }
  Compiler* compiler = runtime.components->compiler();
  if (!compiler) {
    throw error(error_category::config,
                runtime.config.origin().path + ": loading the " + describe(image) +
                    " image as " + std::string(to_string(image.load_format)) +
                    " needs a compiler and none is selected; set [compiler] use = \"clang\"");
  }
  return runtime.programs.translate(*compiler, key, *language, image.bytes);
}

}  // namespace

KernelBundle Runtime::load(std::vector<BundleImage> images) {
  detail::RuntimeState& runtime = *state_;
  auto bundle = std::make_shared<detail::BundleState>();
  bundle->runtime = state_;
  std::set<std::string> seen;
  for (BundleImage& image : images) {
    if (!image.device || !runtime.has_device(image.device)) {
      throw error(error_category::invalid_argument,
                  "Runtime::load: the " + describe(image) +
                      " image names a device that is not one of this runtime's");
    }
    Device& device = *image.device;
    const DeviceInfo& info = device.info();
    if (std::find(info.formats.begin(), info.formats.end(), image.load_format) ==
        info.formats.end()) {
      throw error(error_category::invalid_argument,
                  "Runtime::load: device '" + info.name + "' does not load " +
                      std::string(to_string(image.load_format)) + " (the " + describe(image) +
                      " image)");
    }
    const detail::ProgramKey key =
        detail::image_key(image.bytes, image.format, image.load_format, image.architecture);
    std::shared_ptr<const detail::CompiledProgram> program;
    try {
      program = program_of(runtime, image, key);
    } catch (const error& failure) {
      throw error(failure.category(),
                  "device '" + info.name + "': " + describe(image) + ": " + failure.what());
    }
    auto module = runtime.programs.load(device, key, *program);
    logger().info("load: device '{}': {}{}", info.name, image.origin,
                  image.format != program->format
                      ? " (compiled " + std::string(to_string(image.format)) + " -> " +
                            std::string(to_string(program->format)) + ")"
                      : "");
    bundle->add_module(image.device, std::move(module));
    if (image.kernels.empty()) image.kernels = program->kernels;
    for (const KernelInfo& kernel : program->kernels) {
      if (seen.insert(kernel.name).second) bundle->kernels.push_back(kernel);
    }
    bundle->images.push_back(std::move(image));
  }
  if (bundle->images.empty()) {
    throw error(error_category::invalid_argument, "Runtime::load: no images to load");
  }
  runtime.attach(bundle);
  return KernelBundle(std::move(bundle));
}

}  // namespace plexus
