// to_syclbin and save_bundle (bundle.hpp).
#include <algorithm>
#include <map>
#include <set>

#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/syclbin/bundle.hpp"
#include "plexus/syclbin/kernel_metadata.hpp"

namespace plexus::syclbin {

namespace {

// A triple for host bitcode of a device: its architecture, as LLVM spells it.
std::string host_triple_of(const BundleImage& image) {
  if (!image.triple.empty()) return image.triple;
  std::string arch = image.device ? image.device->info().architecture : std::string();
  std::replace(arch.begin(), arch.end(), '-', '_');
  return (arch.empty() ? std::string("unknown") : arch) + "-unknown-linux-gnu";
}

bool same_bytes(Bytes a, Bytes b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

void add_image(Syclbin& out, AbstractModule& module, const BundleImage& image) {
  auto triple_or = [&](const char* fallback) {
    return image.triple.empty() ? std::string(fallback) : image.triple;
  };
  const Bytes bytes = image.bytes;
  switch (image.format) {
    case BinaryFormat::spirv:
      module.ir_modules.push_back(
          Syclbin::make_ir_module(IRType::spirv, triple_or("spir64-unknown-unknown"), bytes));
      return;
    case BinaryFormat::spir_bitcode:
      module.ir_modules.push_back(Syclbin::make_ir_module(
          IRType::llvm_bitcode, triple_or("spir64-unknown-unknown"), bytes));
      return;
    case BinaryFormat::llvm_bitcode:
      module.ir_modules.push_back(
          Syclbin::make_ir_module(IRType::llvm_bitcode, host_triple_of(image), bytes));
      return;
    case BinaryFormat::ptx:
      module.ir_modules.push_back(
          Syclbin::make_ir_module(IRType::ptx, triple_or("nvptx64-nvidia-cuda"), bytes));
      return;
    case BinaryFormat::amdgcn:
      module.native_images.push_back(Syclbin::make_native_image(
          image.architecture.empty() ? "gfx906" : image.architecture,
          triple_or("amdgcn-amd-amdhsa"), bytes));
      return;
    case BinaryFormat::native:
      module.native_images.push_back(Syclbin::make_native_image(
          image.architecture.empty() && image.device ? image.device->info().architecture
                                                     : image.architecture,
          image.triple, bytes));
      return;
    case BinaryFormat::opencl_c_source:
      break;
  }
  (void)out;
  throw error(error_category::unsupported,
              "a " + std::string(to_string(image.format)) + " image (" + image.origin +
                  ") cannot be written to SYCLBIN");
}

}  // namespace

Syclbin to_syclbin(const KernelBundle& bundle) {
  const std::vector<BundleImage> images = bundle.images();
  std::map<std::uint32_t, std::vector<const BundleImage*>> groups;
  for (const BundleImage& image : images) groups[image.group].push_back(&image);
  Syclbin out;
  out.set_state(State::executable);
  for (const auto& [group, members] : groups) {
    std::vector<KernelInfo> kernels;
    std::set<std::string> names;
    for (const BundleImage* image : members)
      for (const KernelInfo& kernel : image->kernels)
        if (names.insert(kernel.name).second) kernels.push_back(kernel);
    std::vector<std::string> kernel_names;
    for (const KernelInfo& kernel : kernels) kernel_names.push_back(kernel.name);
    AbstractModule& module = out.add_abstract_module(kernel_names);
    set_kernel_info(module.metadata, kernels);
    std::vector<const BundleImage*> written;
    for (const BundleImage* image : members) {
      const bool duplicate = std::any_of(written.begin(), written.end(), [&](const BundleImage* w) {
        return w->format == image->format && same_bytes(w->bytes, image->bytes);
      });
      if (duplicate) continue;
      // The copy in `out` outlives the bundle's storage.
      BundleImage kept = *image;
      kept.bytes = out.keep(std::vector<std::byte>(image->bytes.begin(), image->bytes.end()));
      add_image(out, module, kept);
      written.push_back(image);
    }
  }
  return out;
}

void save_bundle(const KernelBundle& bundle, const std::filesystem::path& path) {
  to_syclbin(bundle).write_file(path);
}

}  // namespace plexus::syclbin
