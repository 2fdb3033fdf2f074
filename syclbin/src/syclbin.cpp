// The Syclbin model: accessors, builders and the version 1 writer. The reader is reader.cpp.
#include "plexus/syclbin/syclbin.hpp"

#include <fstream>
#include <limits>

#include "byte_io.hpp"
#include "plexus/error.hpp"
#include "plexus/syclbin/offload_binary.hpp"

namespace plexus::syclbin {

namespace {

std::string string_property(const PropertySetRegistry& metadata, std::string_view set,
                            std::string_view key) {
  const PropertyValue* value = metadata.find(set, key);
  const ByteArray* array = value ? value->as_byte_array() : nullptr;
  return array ? std::string(array->as_string()) : std::string();
}

std::uint32_t checked_count(std::size_t count, const char* what) {
  if (count > std::numeric_limits<std::uint32_t>::max()) {
    throw error(error_category::invalid_argument,
                std::string("too many ") + what + " for a SYCLBIN file (" + std::to_string(count) + ")");
  }
  return static_cast<std::uint32_t>(count);
}

}  // namespace

std::string_view to_string(State state) {
  switch (state) {
    case State::input: return "input";
    case State::object: return "object";
    case State::executable: return "executable";
  }
  return "unknown";
}

std::optional<State> parse_state(std::string_view text) {
  if (text == "input") return State::input;
  if (text == "object") return State::object;
  if (text == "executable") return State::executable;
  return std::nullopt;
}

std::string to_string(IRType type) {
  switch (type) {
    case IRType::spirv: return "SPIR-V";
    case IRType::ptx: return "PTX";
    case IRType::amdgcn: return "AMDGCN";
    case IRType::llvm_bitcode: return "LLVM bitcode";
  }
  return "unknown (" + std::to_string(static_cast<std::uint32_t>(type)) + ")";
}

std::optional<IRType> parse_ir_type(std::string_view text) {
  if (text == "spirv" || text == "spir-v") return IRType::spirv;
  if (text == "ptx") return IRType::ptx;
  if (text == "amdgcn") return IRType::amdgcn;
  if (text == "llvm-bc" || text == "bc" || text == "llvm") return IRType::llvm_bitcode;
  return std::nullopt;
}

std::optional<std::uint32_t> IRModule::type() const {
  const PropertyValue* value = metadata.find(names::ir_module_metadata, names::type);
  const std::uint32_t* number = value ? value->as_uint32() : nullptr;
  return number ? std::optional<std::uint32_t>(*number) : std::nullopt;
}

std::string IRModule::target() const {
  return string_property(metadata, names::ir_module_metadata, names::target);
}

std::string NativeImage::arch() const {
  return string_property(metadata, names::native_image_metadata, names::arch);
}

std::string NativeImage::target() const {
  return string_property(metadata, names::native_image_metadata, names::target);
}

std::vector<std::string> AbstractModule::kernel_names() const {
  std::vector<std::string> kernels;
  if (const PropertySet* set = metadata.find(names::kernel_names)) {
    for (const auto& property : set->properties()) kernels.push_back(property.name);
  }
  return kernels;
}

std::optional<State> Syclbin::state() const {
  const PropertyValue* value = global_metadata.find(names::global_metadata, names::state);
  const std::uint32_t* number = value ? value->as_uint32() : nullptr;
  if (!number || *number > 2) return std::nullopt;
  return static_cast<State>(*number);
}

void Syclbin::set_state(State state) {
  global_metadata.set(names::global_metadata, names::state, static_cast<std::uint32_t>(state));
}

AbstractModule& Syclbin::add_abstract_module(const std::vector<std::string>& kernel_names) {
  AbstractModule& module = abstract_modules.emplace_back();
  if (!kernel_names.empty()) {
    PropertySet& set = module.metadata.add_set(names::kernel_names);
    for (const auto& kernel : kernel_names) set.set(kernel, std::uint32_t{1});
  }
  return module;
}

IRModule Syclbin::make_ir_module(IRType type, std::string_view triple, Bytes bytes) {
  IRModule module;
  module.metadata.set(names::ir_module_metadata, names::type, static_cast<std::uint32_t>(type));
  module.metadata.set(names::ir_module_metadata, names::target, PropertyValue::string(triple));
  module.bytes = bytes;
  return module;
}

NativeImage Syclbin::make_native_image(std::string_view arch, std::string_view triple,
                                       Bytes bytes) {
  NativeImage image;
  image.metadata.set(names::native_image_metadata, names::arch, PropertyValue::string(arch));
  image.metadata.set(names::native_image_metadata, names::target, PropertyValue::string(triple));
  image.bytes = bytes;
  return image;
}

Bytes Syclbin::keep(std::vector<std::byte> bytes) {
  auto owned = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  Bytes view(owned->data(), owned->size());
  storage_.push_back(std::move(owned));
  return view;
}

std::vector<std::byte> Syclbin::write(Wrapping wrapping) const {
  // Metadata table: global, then every abstract module's, every IR module's, every native
  // image's. Binary table: all IR module bytes, then all native image bytes.
  const std::uint32_t module_count = checked_count(abstract_modules.size(), "abstract modules");
  std::size_t ir_total = 0, native_total = 0;
  for (const auto& module : abstract_modules) {
    ir_total += module.ir_modules.size();
    native_total += module.native_images.size();
  }
  const std::uint32_t ir_count = checked_count(ir_total, "IR modules");
  const std::uint32_t native_count = checked_count(native_total, "native images");

  std::string metadata = global_metadata.to_text();
  const std::uint64_t global_size = metadata.size();
  struct Slice { std::uint64_t offset, size; };
  std::vector<Slice> module_metadata, ir_metadata, native_metadata;
  const auto append_metadata = [&](const PropertySetRegistry& registry, std::vector<Slice>& to) {
    std::string text = registry.to_text();
    to.push_back({metadata.size(), text.size()});
    metadata += text;
  };
  for (const auto& module : abstract_modules) append_metadata(module.metadata, module_metadata);
  for (const auto& module : abstract_modules) {
    for (const auto& ir : module.ir_modules) append_metadata(ir.metadata, ir_metadata);
  }
  for (const auto& module : abstract_modules) {
    for (const auto& image : module.native_images) append_metadata(image.metadata, native_metadata);
  }
  std::uint64_t binary_size = 0;
  for (const auto& module : abstract_modules) {
    for (const auto& ir : module.ir_modules) binary_size += ir.bytes.size();
    for (const auto& image : module.native_images) binary_size += image.bytes.size();
  }

  std::vector<std::byte> out;
  const std::uint64_t headers = file_header_size + abstract_module_header_size * module_count +
                                ir_module_header_size * ir_count +
                                native_image_header_size * native_count;
  out.reserve(headers + metadata.size() + binary_size + 16);
  detail::store_u32(out, magic);
  detail::store_u32(out, format_version);
  detail::store_u32(out, module_count);
  detail::store_u32(out, ir_count);
  detail::store_u32(out, native_count);
  detail::store_u32(out, 0);  // padding
  detail::store_u64(out, metadata.size());
  detail::store_u64(out, binary_size);
  detail::store_u64(out, 0);  // global metadata offset
  detail::store_u64(out, global_size);

  std::uint32_t first_ir = 0, first_native = 0;
  for (std::size_t i = 0; i < abstract_modules.size(); ++i) {
    const auto& module = abstract_modules[i];
    detail::store_u64(out, module_metadata[i].offset);
    detail::store_u64(out, module_metadata[i].size);
    detail::store_u32(out, static_cast<std::uint32_t>(module.ir_modules.size()));
    detail::store_u32(out, first_ir);
    detail::store_u32(out, static_cast<std::uint32_t>(module.native_images.size()));
    detail::store_u32(out, first_native);
    first_ir += static_cast<std::uint32_t>(module.ir_modules.size());
    first_native += static_cast<std::uint32_t>(module.native_images.size());
  }
  std::uint64_t binary_offset = 0;
  std::size_t index = 0;
  for (const auto& module : abstract_modules) {
    for (const auto& ir : module.ir_modules) {
      detail::store_u64(out, ir_metadata[index].offset);
      detail::store_u64(out, ir_metadata[index].size);
      detail::store_u64(out, binary_offset);
      detail::store_u64(out, ir.bytes.size());
      binary_offset += ir.bytes.size();
      ++index;
    }
  }
  index = 0;
  for (const auto& module : abstract_modules) {
    for (const auto& image : module.native_images) {
      detail::store_u64(out, native_metadata[index].offset);
      detail::store_u64(out, native_metadata[index].size);
      detail::store_u64(out, binary_offset);
      detail::store_u64(out, image.bytes.size());
      binary_offset += image.bytes.size();
      ++index;
    }
  }
  const auto* text = reinterpret_cast<const std::byte*>(metadata.data());
  out.insert(out.end(), text, text + metadata.size());
  detail::pad_to_8(out);
  for (const auto& module : abstract_modules) {
    for (const auto& ir : module.ir_modules) out.insert(out.end(), ir.bytes.begin(), ir.bytes.end());
  }
  for (const auto& module : abstract_modules) {
    for (const auto& image : module.native_images) {
      out.insert(out.end(), image.bytes.begin(), image.bytes.end());
    }
  }
  detail::pad_to_8(out);
  if (wrapping == Wrapping::bare) return out;
  return offload_binary::wrap(out);
}

void Syclbin::write_file(const std::filesystem::path& path, Wrapping wrapping) const {
  const std::vector<std::byte> bytes = write(wrapping);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw error(error_category::io, "cannot write '" + path.string() + "'");
}

}  // namespace plexus::syclbin
