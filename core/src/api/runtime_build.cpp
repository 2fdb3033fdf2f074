// Runtime::build: one source for every device through the program cache.
#include <algorithm>
#include <functional>
#include <sstream>
#include <string_view>

#include "bundle_state.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/runtime.hpp"
#include "runtime_state.hpp"

namespace plexus {

namespace {

std::vector<std::string> split_options(const std::string& options) {
  std::vector<std::string> parts;
  std::istringstream in(options);
  std::string part;
  while (in >> part) parts.push_back(part);
  return parts;
}

std::string join(const std::vector<std::string>& parts) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : " ") + part;
  return text;
}

std::string format_list(const std::vector<BinaryFormat>& formats) {
  std::string text;
  for (auto format : formats) text += (text.empty() ? "" : ", ") + std::string(to_string(format));
  return text.empty() ? "none" : text;
}

// The compile request's target_architecture for `format` on the device: its architecture
// name for native code, the highest SPIR-V version it loads for SPIR-V ("spirv1.2"; none
// known: the compiler's default), nothing otherwise.
std::string architecture_for(BinaryFormat format, const DeviceInfo& info) {
  if (format == BinaryFormat::ptx || format == BinaryFormat::amdgcn) return info.architecture;
  if (format == BinaryFormat::spirv && !info.spirv_version.empty())
    return "spirv" + info.spirv_version;
  return {};
}

}  // namespace

KernelBundle Runtime::build(const std::string& source, const std::string& options) {
  detail::RuntimeState& runtime = *state_;
  const detail::BundleKey key{std::hash<std::string_view>{}(source), options, source, {}};
  return KernelBundle(
      runtime.programs.bundle(key, [&] { return build_bundle(source, options, nullptr); }));
}

KernelBundle Runtime::build(const std::string& source, const BuildProperties& properties) {
  if (properties.language != SourceLanguage::opencl_c &&
      properties.language != SourceLanguage::cpp_for_opencl &&
      properties.language != SourceLanguage::sycl)
    throw error(error_category::invalid_argument,
                "Runtime::build takes OpenCL C, C++ for OpenCL or SYCL source; load "
                "prebuilt device code with Runtime::load");
  if (!properties.registered_names.empty() && properties.language != SourceLanguage::sycl)
    throw error(error_category::invalid_argument,
                "registered names are for SYCL source (BuildProperties::language = sycl)");
  detail::RuntimeState& runtime = *state_;
  const std::string options = join(properties.build_options);
  auto shared = std::make_shared<const BuildProperties>(properties);
  const detail::BundleKey key{std::hash<std::string_view>{}(source), options, source,
                              detail::properties_key(properties)};
  return KernelBundle(
      runtime.programs.bundle(key, [&] { return build_bundle(source, options, shared); }));
}

std::shared_ptr<const detail::BundleState> Runtime::build_bundle(
    const std::string& source, const std::string& options,
    const std::shared_ptr<const BuildProperties>& properties) {
  detail::RuntimeState& runtime = *state_;
  Compiler* compiler = runtime.components->compiler();
  if (!compiler) {
    throw error(error_category::config, runtime.config.origin().path +
                                            ": building kernels needs a compiler and none is "
                                            "selected; set [compiler] use = \"clang\"");
  }
  const std::vector<BinaryFormat> targets = compiler->targets();
  const std::vector<std::string> option_list = split_options(options);
  auto bundle = std::make_shared<detail::BundleState>();
  bundle->runtime = state_;
  bundle->source = source;
  bundle->options = join(option_list);
  bundle->option_list = option_list;
  if (properties) {
    bundle->build = properties;
    bundle->properties = detail::properties_key(*properties);
  }
  std::vector<std::string> skipped;
  for (Device* device : runtime.devices) {
    const DeviceInfo& info = device->info();
    auto format = std::find_first_of(info.formats.begin(), info.formats.end(), targets.begin(),
                                     targets.end());
    if (format == info.formats.end()) {
      skipped.push_back("'" + info.name + "' loads " + format_list(info.formats) +
                        ", the compiler produces " + format_list(targets));
      continue;
    }
    detail::ProgramKey key{detail::source_hash(source), bundle->options, *format,
                           architecture_for(*format, info),
                           source};
    key.properties = bundle->properties;
    key.build = bundle->build;
    auto program = runtime.programs.compile(*compiler, key, option_list);
    try {
      auto module = runtime.programs.load(*device, key, *program);
      bundle->add_module(device, std::move(module));
      bundle->images.push_back({.device = device,
                                .format = program->format,
                                .load_format = program->format,
                                .architecture = key.architecture,
                                .triple = {},
                                .bytes = program->binary,
                                .storage = program,
                                .kernels = program->kernels,
                                .origin = "compiled from source to " +
                                          std::string(to_string(program->format))});
    } catch (const error& failure) {
      if (failure.category() != error_category::unsupported) throw;
      skipped.push_back("'" + info.name + "': " + failure.what());
      logger().debug("build: device '{}' skipped: {}", info.name, failure.what());
      continue;
    }
    if (bundle->kernels.empty()) bundle->kernels = program->kernels;
  }
  if (bundle->devices.empty()) {
    std::string reasons;
    for (const auto& reason : skipped) reasons += "\n  " + reason;
    throw error(error_category::unsupported,
                "no device can run this source" +
                    (reasons.empty() ? std::string(": there are no devices") : ":" + reasons));
  }
  runtime.attach(bundle);
  return bundle;
}

}  // namespace plexus
