#include "plexus/syclbin/image_choice.hpp"

#include <algorithm>

#include "plexus/error.hpp"

namespace plexus::syclbin {

namespace {

std::string format_list(const std::vector<BinaryFormat>& formats) {
  std::string text;
  for (auto format : formats) text += (text.empty() ? "" : ", ") + std::string(to_string(format));
  return text.empty() ? "none" : text;
}

// "x86_64-pc-linux-gnu" -> "x86_64"; architectures compare with '-' and '_' alike.
std::string normalized_arch(std::string_view text) {
  std::string arch(text.substr(0, text.find('-') == std::string_view::npos ? text.size()
                                                                          : text.find('-')));
  std::replace(arch.begin(), arch.end(), '-', '_');
  return arch;
}

bool is_spir(std::string_view triple) { return triple.rfind("spir", 0) == 0; }

// Whether the device, by its architecture, can run host bitcode for `triple`.
bool host_triple_fits(std::string_view triple, const DeviceInfo& device) {
  std::string arch = device.architecture;
  std::replace(arch.begin(), arch.end(), '-', '_');
  return triple.empty() || normalized_arch(triple) == arch;
}

bool loads(const DeviceInfo& device, BinaryFormat format) {
  return std::find(device.formats.begin(), device.formats.end(), format) != device.formats.end();
}

std::size_t preference(const DeviceInfo& device, BinaryFormat format) {
  return static_cast<std::size_t>(
      std::find(device.formats.begin(), device.formats.end(), format) - device.formats.begin());
}

// Formats the compiler can turn an IR module of `format`/`triple` into (its triple family).
std::vector<BinaryFormat> translations(BinaryFormat format, std::string_view triple) {
  if (format == BinaryFormat::spirv || format == BinaryFormat::spir_bitcode)
    return {BinaryFormat::spirv, BinaryFormat::spir_bitcode};
  if (format == BinaryFormat::llvm_bitcode) return {BinaryFormat::llvm_bitcode};
  (void)triple;
  return {};
}

std::string ir_label(const IRModule& module, std::size_t index) {
  const auto type = module.type();
  return "IR module " + std::to_string(index) + " (" +
         (type ? to_string(static_cast<IRType>(*type)) : std::string("no type")) +
         (module.target().empty() ? "" : ", " + module.target()) + ")";
}

std::string native_label(const NativeImage& image, std::size_t index) {
  return "native image " + std::to_string(index) + " (" + image.arch() +
         (image.target().empty() ? "" : ", " + image.target()) + ")";
}

std::optional<State> checked_state(const Syclbin& file) {
  const PropertyValue* value = file.global_metadata.find(names::global_metadata, names::state);
  if (!value) return std::nullopt;
  const std::uint32_t* number = value->as_uint32();
  if (!number || *number > 2) {
    throw error(error_category::invalid_argument,
                "SYCLBIN [" + std::string(names::global_metadata) +
                    "] state: expected 0 (input), 1 (object) or 2 (executable), found " +
                    (number ? std::to_string(*number) : std::string("a byte array")));
  }
  return static_cast<State>(*number);
}

// The best image of `module` for `device`, or nullopt.
std::optional<ImageChoice> choose(const AbstractModule& module, std::size_t module_index,
                                  const DeviceInfo& device,
                                  const std::vector<BinaryFormat>& compiler_targets, State state) {
  const std::string where = "abstract module " + std::to_string(module_index) + ": ";
  if (state != State::input) {
    for (std::size_t i = 0; i < module.native_images.size(); ++i) {
      const NativeImage& image = module.native_images[i];
      const BinaryFormat format = format_of(image);
      if (image.arch() == device.architecture && loads(device, format)) {
        return ImageChoice{module_index, true, i, format, format, false,
                           where + native_label(image, i) + ": native code for the device's "
                                   "architecture '" + device.architecture + "'"};
      }
    }
    std::optional<ImageChoice> best;
    for (std::size_t i = 0; i < module.ir_modules.size(); ++i) {
      const IRModule& ir = module.ir_modules[i];
      const auto format = format_of(ir);
      if (!format || !loads(device, *format)) continue;
      if (*format == BinaryFormat::llvm_bitcode && !host_triple_fits(ir.target(), device)) continue;
      if (best && preference(device, best->load_format) <= preference(device, *format)) continue;
      best = ImageChoice{module_index, false, i, *format, *format, false,
                         where + ir_label(ir, i) + ": the device loads " +
                             std::string(to_string(*format)) + " as it is (it loads " +
                             format_list(device.formats) + ")"};
    }
    if (best) return best;
  }
  std::optional<ImageChoice> best;
  for (std::size_t i = 0; i < module.ir_modules.size(); ++i) {
    const IRModule& ir = module.ir_modules[i];
    const auto format = format_of(ir);
    if (!format) continue;
    if (*format == BinaryFormat::llvm_bitcode && !host_triple_fits(ir.target(), device)) continue;
    for (BinaryFormat target : translations(*format, ir.target())) {
      if (!loads(device, target) ||
          std::find(compiler_targets.begin(), compiler_targets.end(), target) ==
              compiler_targets.end())
        continue;
      if (best && preference(device, best->load_format) <= preference(device, target)) continue;
      best = ImageChoice{module_index, false, i, *format, target, true,
                         where + ir_label(ir, i) + ": " +
                             (state == State::input ? "state input: compiled to "
                                                    : "translated through the compiler to ") +
                             std::string(to_string(target)) + " (the device loads " +
                             format_list(device.formats) + ")"};
    }
  }
  return best;
}

}  // namespace

std::optional<BinaryFormat> format_of(const IRModule& module) {
  const auto type = module.type();
  if (!type) return std::nullopt;
  switch (static_cast<IRType>(*type)) {
    case IRType::spirv: return BinaryFormat::spirv;
    case IRType::ptx: return BinaryFormat::ptx;
    case IRType::amdgcn: return BinaryFormat::amdgcn;
    case IRType::llvm_bitcode:
      return is_spir(module.target()) ? BinaryFormat::spir_bitcode : BinaryFormat::llvm_bitcode;
  }
  return std::nullopt;
}

BinaryFormat format_of(const NativeImage& image) {
  const std::string target = image.target();
  if (target.rfind("amdgcn", 0) == 0) return BinaryFormat::amdgcn;
  if (target.rfind("nvptx", 0) == 0) return BinaryFormat::ptx;
  return BinaryFormat::native;
}

std::string offered_images(const Syclbin& file) {
  std::string text;
  for (std::size_t m = 0; m < file.abstract_modules.size(); ++m) {
    const AbstractModule& module = file.abstract_modules[m];
    std::string images;
    for (std::size_t i = 0; i < module.ir_modules.size(); ++i)
      images += (images.empty() ? "" : ", ") + ir_label(module.ir_modules[i], i);
    for (std::size_t i = 0; i < module.native_images.size(); ++i)
      images += (images.empty() ? "" : ", ") + native_label(module.native_images[i], i);
    text += (text.empty() ? "" : "; ") + std::string("abstract module ") + std::to_string(m) +
            ": " + (images.empty() ? "no images" : images);
  }
  return text.empty() ? "no abstract modules" : text;
}

std::vector<DevicePlan> plan_images(const Syclbin& file, const std::vector<DeviceInfo>& devices,
                                    const std::vector<BinaryFormat>& compiler_targets) {
  const State state = checked_state(file).value_or(State::executable);
  std::vector<DevicePlan> plans;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const DeviceInfo& device = devices[d];
    DevicePlan plan;
    plan.device = d;
    for (std::size_t m = 0; m < file.abstract_modules.size() && plan.failure.empty(); ++m) {
      const AbstractModule& module = file.abstract_modules[m];
      if (state == State::object) {
        const PropertySet* imports = module.metadata.find("SYCL/imported symbols");
        if (imports && !imports->empty()) {
          plan.failure = "abstract module " + std::to_string(m) +
                         " imports symbols (state object) and Plexus does not link SYCLBIN "
                         "objects";
          break;
        }
      }
      if (auto choice = choose(module, m, device, compiler_targets, state)) {
        plan.choices.push_back(std::move(*choice));
      } else {
        plan.failure = "no image of abstract module " + std::to_string(m) +
                       " fits: the device loads " + format_list(device.formats) +
                       " (architecture '" + device.architecture + "'), the compiler produces " +
                       format_list(compiler_targets) +
                       (state == State::input ? " (state input: native images are not used)"
                                              : "");
      }
    }
    if (!plan.failure.empty()) plan.choices.clear();
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace plexus::syclbin
