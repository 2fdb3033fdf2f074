// load_bundle and plan_for (bundle.hpp).
#include <algorithm>
#include <fstream>
#include <memory>
#include <set>

#include "plexus/compiler.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/syclbin/bundle.hpp"
#include "plexus/syclbin/kernel_metadata.hpp"

namespace plexus::syclbin {

namespace {

std::vector<BinaryFormat> compiler_targets(const Runtime& runtime) {
  Compiler* compiler = runtime.components().compiler();
  return compiler ? compiler->targets() : std::vector<BinaryFormat>{};
}

BundleImage image_for(const Syclbin& file, const ImageChoice& choice, Device* device,
                      const std::shared_ptr<const Syclbin>& keep) {
  const AbstractModule& module = file.abstract_modules[choice.module];
  BundleImage image;
  image.device = device;
  image.format = choice.format;
  image.load_format = choice.load_format;
  if (choice.native) {
    const NativeImage& native = module.native_images[choice.index];
    image.architecture = native.arch();
    image.triple = native.target();
    image.bytes = native.bytes;
  } else {
    const IRModule& ir = module.ir_modules[choice.index];
    image.triple = ir.target();
    image.bytes = ir.bytes;
  }
  image.storage = keep;
  image.group = static_cast<std::uint32_t>(choice.module);
  image.origin = choice.reason;
  // State input (and translations) go through the compiler, which reports the kernels;
  // otherwise the file's kernel info (none: the compiler inspects IR).
  if (!choice.compile) image.kernels = kernel_info(module.metadata, module.kernel_names());
  return image;
}

}  // namespace

std::vector<DevicePlan> plan_for(const Runtime& runtime, const Syclbin& file) {
  std::vector<DeviceInfo> infos;
  for (Device* device : runtime.devices()) infos.push_back(device->info());
  return plan_images(file, infos, compiler_targets(runtime));
}

KernelBundle load_bundle(Runtime& runtime, const Syclbin& file, const std::string& name) {
  if (file.abstract_modules.empty()) {
    throw error(error_category::invalid_argument,
                name + " holds no abstract modules, so no kernels to load");
  }
  const std::vector<Device*> devices = runtime.devices();
  const std::vector<DevicePlan> plans = plan_for(runtime, file);
  auto keep = std::make_shared<const Syclbin>(file);  // shares the file's storage
  std::vector<BundleImage> images;
  std::string skipped;
  for (const DevicePlan& plan : plans) {
    Device* device = devices[plan.device];
    if (!plan.failure.empty()) {
      logger().info("syclbin: {}: device '{}' skipped: {}", name, device->info().name,
                    plan.failure);
      skipped += "\n  '" + device->info().name + "': " + plan.failure;
      continue;
    }
    for (const ImageChoice& choice : plan.choices)
      images.push_back(image_for(*keep, choice, device, keep));
  }
  if (images.empty()) {
    throw error(error_category::unsupported,
                "no device can run " + name + "; it offers " + offered_images(file) +
                    (skipped.empty() ? std::string("; the runtime has no devices") : skipped));
  }
  KernelBundle bundle = runtime.load(std::move(images));
  // Every kernel the file names must be reachable on every device the bundle is loaded on.
  for (const BundleImage& image : bundle.images()) {
    for (const std::string& kernel : file.abstract_modules[image.group].kernel_names()) {
      const bool defined = std::any_of(image.kernels.begin(), image.kernels.end(),
                                       [&](const KernelInfo& info) { return info.name == kernel; });
      if (!defined) {
        throw error(error_category::invalid_argument,
                    name + ": abstract module " + std::to_string(image.group) + " names kernel '" +
                        kernel + "' ([SYCL/kernel names]) but the image chosen for device '" +
                        image.device->info().name + "' does not define it (" + image.origin + ")");
      }
    }
  }
  return bundle;
}

KernelBundle load_bundle(Runtime& runtime, const std::filesystem::path& path) {
  const std::string name = "'" + path.string() + "'";
  Syclbin file;
  try {
    file = Syclbin::read_file(path);
  } catch (const error& failure) {
    throw error(failure.category(), name + ": " + failure.what());
  }
  return load_bundle(runtime, file, name);
}

KernelBundle load_bundle(Runtime& runtime, Bytes bytes) {
  std::vector<std::byte> copy(bytes.begin(), bytes.end());
  const Bytes view(copy.data(), copy.size());
  Syclbin file;
  try {
    file = Syclbin::read(view);
  } catch (const error& failure) {
    throw error(failure.category(), std::string("the SYCLBIN buffer: ") + failure.what());
  }
  file.keep(std::move(copy));  // a moved vector keeps its buffer: the views stay valid
  return load_bundle(runtime, file, "the SYCLBIN buffer");
}

}  // namespace plexus::syclbin
