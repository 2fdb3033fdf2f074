#include "plexus/syclbin/offload_binary.hpp"

#include <string>

#include "byte_io.hpp"
#include "plexus/error.hpp"
#include "plexus/syclbin/syclbin.hpp"

namespace plexus::syclbin::offload_binary {

namespace {

constexpr std::byte offload_magic[4] = {std::byte{0x10}, std::byte{0xff}, std::byte{0x10},
                                        std::byte{0xad}};

[[noreturn]] void fail(const std::string& what) {
  throw error(error_category::invalid_argument, "OffloadBinary wrapper: " + what);
}

std::string at(std::uint64_t offset) { return " (at byte " + std::to_string(offset) + ")"; }

bool starts_with_syclbin_magic(std::span<const std::byte> image) {
  return image.size() >= 4 && detail::load_u32(image.data()) == syclbin::magic;
}

}  // namespace

bool has_magic(std::span<const std::byte> file) {
  return file.size() >= 4 && file[0] == offload_magic[0] && file[1] == offload_magic[1] &&
         file[2] == offload_magic[2] && file[3] == offload_magic[3];
}

std::span<const std::byte> find_syclbin_image(std::span<const std::byte> file) {
  if (!has_magic(file)) fail("bad magic at byte 0 (expected 10 ff 10 ad)");
  if (file.size() < header_size) {
    fail("truncated: " + std::to_string(file.size()) + " bytes, the header needs " +
         std::to_string(header_size));
  }
  const std::byte* base = file.data();
  const std::uint32_t version = detail::load_u32(base + 4);
  if (version != 1 && version != 2) {
    throw error(error_category::unsupported,
                "OffloadBinary wrapper: version " + std::to_string(version) + at(4) +
                    " is not supported (versions 1 and 2 are)");
  }
  const std::uint64_t size = detail::load_u64(base + 8);
  if (size > file.size() || size < header_size) {
    fail("size field " + std::to_string(size) + at(8) + " does not fit the " +
         std::to_string(file.size()) + "-byte file");
  }
  const std::uint64_t entries_offset = detail::load_u64(base + 16);
  const std::uint64_t count_field = detail::load_u64(base + 24);
  std::uint64_t count = count_field;
  if (version == 1) {
    if (count_field != entry_size) {
      fail("version 1 entry size " + std::to_string(count_field) + at(24) + " is not " +
           std::to_string(entry_size));
    }
    count = 1;
  }
  if (count == 0) fail("no entries (entries count" + at(24) + " is 0)");
  if (entries_offset > size || count > (size - entries_offset) / entry_size) {
    fail("the entry table (" + std::to_string(count) + " entries at offset " +
         std::to_string(entries_offset) + at(16) + ") runs past the " + std::to_string(size) +
         "-byte binary");
  }
  std::string kinds;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t entry = entries_offset + i * entry_size;
    const std::uint16_t image_kind = detail::load_u16(base + entry);
    const std::uint64_t image_offset = detail::load_u64(base + entry + 24);
    const std::uint64_t image_size = detail::load_u64(base + entry + 32);
    if (image_offset > size || image_size > size - image_offset) {
      fail("entry " + std::to_string(i) + ": image [" + std::to_string(image_offset) + ", +" +
           std::to_string(image_size) + ")" + at(entry + 24) + " runs past the " +
           std::to_string(size) + "-byte binary");
    }
    const auto image = file.subspan(image_offset, image_size);
    if (starts_with_syclbin_magic(image)) return image;
    kinds += (kinds.empty() ? "" : ", ") + std::to_string(image_kind);
  }
  fail("none of its " + std::to_string(count) + " entries (image kinds " + kinds +
       ") holds a SYCLBIN version 1 image (bytes 49 42 59 53); a SYCLBIN version 2 draft file "
       "is not supported");
}

std::vector<std::byte> wrap(std::span<const std::byte> syclbin) {
  std::vector<std::byte> out;
  const std::uint64_t image_offset = header_size + entry_size;
  std::uint64_t total = image_offset + syclbin.size();
  total += (8 - total % 8) % 8;
  out.reserve(total);
  out.insert(out.end(), std::begin(offload_magic), std::end(offload_magic));
  detail::store_u32(out, written_version);
  detail::store_u64(out, total);
  detail::store_u64(out, header_size);  // entries offset
  detail::store_u64(out, 1);            // entries count
  detail::store_u16(out, image_kind_syclbin);
  detail::store_u16(out, offload_kind_sycl);
  detail::store_u32(out, 0);  // flags
  detail::store_u64(out, 0);  // string offset
  detail::store_u64(out, 0);  // string count
  detail::store_u64(out, image_offset);
  detail::store_u64(out, syclbin.size());
  out.insert(out.end(), syclbin.begin(), syclbin.end());
  detail::pad_to_8(out);
  return out;
}

}  // namespace plexus::syclbin::offload_binary
