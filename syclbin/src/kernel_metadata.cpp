#include "plexus/syclbin/kernel_metadata.hpp"

#include "byte_io.hpp"
#include "plexus/error.hpp"

namespace plexus::syclbin {

namespace {

// 1: no argument flags; 2: a flags word per argument (1: written); 3: the kernel flag
// cancellable (8). All are read; a kernel is written with the lowest version that holds it
// (3 only for cancellable kernels, which readers of 2 could not launch), so files without
// them stay readable by earlier Plexus versions.
constexpr std::uint32_t encoding_version = 3;
constexpr std::uint32_t known_flags[] = {0, 7, 7, 15};  // by version

std::vector<std::byte> encode(const KernelInfo& kernel) {
  std::vector<std::byte> out;
  detail::store_u32(out, kernel.cancellable ? encoding_version : 2);
  detail::store_u32(out, (kernel.uses_barriers ? 1u : 0u) | (kernel.uses_local_memory ? 2u : 0u) |
                             (kernel.bounds_checked ? 4u : 0u) | (kernel.cancellable ? 8u : 0u));
  for (std::size_t size : kernel.required_work_group_size) detail::store_u64(out, size);
  detail::store_u32(out, static_cast<std::uint32_t>(kernel.args.size()));
  for (const KernelArgInfo& arg : kernel.args) {
    detail::store_u32(out, static_cast<std::uint32_t>(arg.kind));
    detail::store_u64(out, arg.size);
    detail::store_u32(out, arg.written ? 1u : 0u);
    detail::store_u32(out, static_cast<std::uint32_t>(arg.name.size()));
    for (char c : arg.name) out.push_back(std::byte(static_cast<unsigned char>(c)));
  }
  return out;
}

class Decoder {
 public:
  Decoder(const std::vector<std::byte>& bytes, const std::string& kernel)
      : bytes_(bytes), kernel_(kernel) {}

  std::uint64_t take(std::size_t width, const char* field) {
    if (bytes_.size() - at_ < width) fail(std::string("truncated at ") + field);
    const std::uint64_t value = detail::load_le(bytes_.data() + at_, width);
    at_ += width;
    return value;
  }
  std::string take_text(std::size_t length) {
    if (bytes_.size() - at_ < length) fail("truncated in an argument name");
    std::string text(reinterpret_cast<const char*>(bytes_.data() + at_), length);
    at_ += length;
    return text;
  }
  bool done() const { return at_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw error(error_category::invalid_argument,
                "SYCLBIN [" + std::string(kernel_info_set) + "] " + kernel_ + ": " + what +
                    " (byte " + std::to_string(at_) + " of " + std::to_string(bytes_.size()) + ")");
  }

 private:
  const std::vector<std::byte>& bytes_;
  const std::string& kernel_;
  std::size_t at_ = 0;
};

KernelInfo decode(const std::string& name, const PropertyValue& value) {
  const ByteArray* array = value.as_byte_array();
  static const std::vector<std::byte> none;
  Decoder in(array ? array->bytes : none, name);
  if (!array) in.fail("not a byte array");
  const auto version = in.take(4, "the version");
  if (version < 1 || version > encoding_version)
    in.fail("unknown encoding version " + std::to_string(version));
  KernelInfo kernel;
  kernel.name = name;
  const auto flags = in.take(4, "the flags");
  if (flags & ~std::uint64_t{known_flags[version]})
    in.fail("unknown flags " + std::to_string(flags) + " for encoding version " +
            std::to_string(version));
  kernel.uses_barriers = flags & 1u;
  kernel.uses_local_memory = flags & 2u;
  kernel.bounds_checked = flags & 4u;
  kernel.cancellable = flags & 8u;
  for (std::size_t& size : kernel.required_work_group_size)
    size = static_cast<std::size_t>(in.take(8, "the required work-group size"));
  const auto count = in.take(4, "the argument count");
  if (count > 4096) in.fail("implausible argument count " + std::to_string(count));
  for (std::uint64_t i = 0; i < count; ++i) {
    KernelArgInfo arg;
    const auto kind = in.take(4, "an argument kind");
    if (kind > static_cast<std::uint32_t>(KernelArgKind::image))
      in.fail("argument " + std::to_string(i) + " has unknown kind " + std::to_string(kind));
    arg.kind = static_cast<KernelArgKind>(kind);
    arg.size = static_cast<std::size_t>(in.take(8, "an argument size"));
    if (version >= 2) arg.written = (in.take(4, "argument flags") & 1u) != 0;
    arg.name = in.take_text(static_cast<std::size_t>(in.take(4, "an argument name length")));
    kernel.args.push_back(std::move(arg));
  }
  if (!in.done()) in.fail("trailing bytes");
  return kernel;
}

}  // namespace

void set_kernel_info(PropertySetRegistry& metadata, const std::vector<KernelInfo>& kernels) {
  PropertySet& set = metadata.add_set(kernel_info_set);
  for (const KernelInfo& kernel : kernels)
    set.set(kernel.name, ByteArray::from_bytes(encode(kernel)));
}

std::vector<KernelInfo> kernel_info(const PropertySetRegistry& metadata,
                                    const std::vector<std::string>& names) {
  const PropertySet* set = metadata.find(kernel_info_set);
  if (!set) return {};
  std::vector<KernelInfo> kernels;
  for (const std::string& name : names) {
    const PropertyValue* value = set->find(name);
    if (!value) return {};
    kernels.push_back(decode(name, *value));
  }
  return kernels;
}

}  // namespace plexus::syclbin
