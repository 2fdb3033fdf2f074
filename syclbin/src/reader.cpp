// The SYCLBIN version 1 reader: every count, offset and size is checked against the file
// before it is used; payloads stay views into the caller's (or the mapped) bytes.
#include <algorithm>
#include <limits>
#include <string>

#include "byte_io.hpp"
#include "plexus/error.hpp"
#include "plexus/syclbin/mapped_file.hpp"
#include "plexus/syclbin/offload_binary.hpp"
#include "plexus/syclbin/syclbin.hpp"

namespace plexus::syclbin {

namespace {

// A byte range inside one of the two byte tables, with what owns it, for overlap checks.
struct Range {
  std::uint64_t offset;
  std::uint64_t size;
  std::string owner;
};

class Reader {
 public:
  Reader(Bytes image, std::uint64_t base) : image_(image), base_(base) {}

  void read(Syclbin& out);

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw error(error_category::invalid_argument, "malformed SYCLBIN: " + what);
  }
  // A file offset for a message: image offsets shifted by where the image lies in the file.
  std::string at(std::uint64_t image_offset) const {
    return "byte " + std::to_string(base_ + image_offset);
  }
  std::uint32_t u32(std::uint64_t offset) const { return detail::load_u32(image_.data() + offset); }
  std::uint64_t u64(std::uint64_t offset) const { return detail::load_u64(image_.data() + offset); }

  // Checks [offset, offset + size) against a table and returns the image offset of its start.
  std::uint64_t locate(const std::string& what, std::uint64_t field, std::uint64_t offset,
                       std::uint64_t size, const char* table, std::uint64_t table_start,
                       std::uint64_t table_size) const;
  // Locates a metadata blob (offset and size at `field`) for `into`; parsed by parse_metadata()
  // once the whole layout is known to be sound.
  void metadata(const std::string& what, std::uint64_t field, PropertySetRegistry& into);
  void parse_metadata();
  void check_overlaps(std::vector<Range>& ranges, const char* table) const;
  void check_known_properties(const Syclbin& out) const;

  Bytes image_;
  std::uint64_t base_;
  std::uint64_t metadata_start_ = 0, metadata_size_ = 0;
  std::uint64_t binary_start_ = 0, binary_size_ = 0;
  std::vector<Range> metadata_ranges_, binary_ranges_;
  struct Pending {
    std::uint64_t start, size;
    std::string what;
    PropertySetRegistry* into;
  };
  std::vector<Pending> pending_;
};

std::uint64_t Reader::locate(const std::string& what, std::uint64_t field, std::uint64_t offset,
                             std::uint64_t size, const char* table, std::uint64_t table_start,
                             std::uint64_t table_size) const {
  if (offset > table_size || size > table_size - offset) {
    fail(what + ": offset " + std::to_string(offset) + " and size " + std::to_string(size) +
         " (fields at " + at(field) + ") lie outside the " + std::to_string(table_size) +
         "-byte " + table + " byte table");
  }
  return table_start + offset;
}

void Reader::metadata(const std::string& what, std::uint64_t field, PropertySetRegistry& into) {
  const std::uint64_t offset = u64(field), size = u64(field + 8);
  const std::uint64_t start =
      locate(what + " metadata", field, offset, size, "metadata", metadata_start_, metadata_size_);
  if (size) metadata_ranges_.push_back({offset, size, what + " metadata"});
  pending_.push_back({start, size, what, &into});
}

void Reader::parse_metadata() {
  for (const Pending& blob : pending_) {
    const auto* text = reinterpret_cast<const char*>(image_.data() + blob.start);
    try {
      *blob.into = PropertySetRegistry::parse(std::string_view(text, blob.size));
    } catch (const error& bad) {
      fail(blob.what + " metadata (" + std::to_string(blob.size) + " bytes at " + at(blob.start) +
           "): " + bad.what());
    }
  }
}

void Reader::check_overlaps(std::vector<Range>& ranges, const char* table) const {
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.offset < b.offset; });
  for (std::size_t i = 1; i < ranges.size(); ++i) {
    const Range& before = ranges[i - 1];
    const Range& after = ranges[i];
    if (after.offset < before.offset + before.size) {
      fail(after.owner + " [" + std::to_string(after.offset) + ", " +
           std::to_string(after.offset + after.size) + ") overlaps " + before.owner + " [" +
           std::to_string(before.offset) + ", " + std::to_string(before.offset + before.size) +
           ") in the " + table + " byte table");
    }
  }
}

void Reader::check_known_properties(const Syclbin& out) const {
  const auto expect = [&](const PropertySetRegistry& registry, std::string_view set,
                          std::string_view key, PropertyValue::Type type, const std::string& what) {
    const PropertyValue* value = registry.find(set, key);
    if (value && value->type() != type) {
      fail(what + ": [" + std::string(set) + "] " + std::string(key) + " must be " +
           (type == PropertyValue::Type::uint32 ? "a 32-bit integer (type 1)"
                                                : "a byte array (type 2)"));
    }
  };
  expect(out.global_metadata, names::global_metadata, names::state, PropertyValue::Type::uint32,
         "global metadata");
  const PropertyValue* state = out.global_metadata.find(names::global_metadata, names::state);
  if (state && *state->as_uint32() > 2) {
    fail("global metadata: state " + std::to_string(*state->as_uint32()) +
         " is not input (0), object (1) or executable (2)");
  }
  for (std::size_t m = 0; m < out.abstract_modules.size(); ++m) {
    const AbstractModule& module = out.abstract_modules[m];
    const std::string name = "abstract module " + std::to_string(m);
    for (std::size_t i = 0; i < module.ir_modules.size(); ++i) {
      const std::string what = name + ", IR module " + std::to_string(i);
      expect(module.ir_modules[i].metadata, names::ir_module_metadata, names::type,
             PropertyValue::Type::uint32, what);
      expect(module.ir_modules[i].metadata, names::ir_module_metadata, names::target,
             PropertyValue::Type::byte_array, what);
    }
    for (std::size_t i = 0; i < module.native_images.size(); ++i) {
      const std::string what = name + ", native image " + std::to_string(i);
      expect(module.native_images[i].metadata, names::native_image_metadata, names::arch,
             PropertyValue::Type::byte_array, what);
      expect(module.native_images[i].metadata, names::native_image_metadata, names::target,
             PropertyValue::Type::byte_array, what);
    }
  }
}

void Reader::read(Syclbin& out) {
  const std::uint64_t size = image_.size();
  if (size >= 4 && u32(0) != magic) {
    fail("bad magic " + detail::hex_bytes(image_.data(), 4) + " at " + at(0) +
         " (a SYCLBIN file starts with 49 42 59 53, the little-endian u32 0x53594249)");
  }
  if (size >= 8 && u32(4) != format_version) {
    throw error(error_category::unsupported,
                "SYCLBIN version " + std::to_string(u32(4)) + " (field at " + at(4) +
                    ") is not supported; this reader reads version 1");
  }
  if (size < file_header_size) {
    fail("truncated: " + std::to_string(size) + " bytes, the file header needs " +
         std::to_string(file_header_size));
  }
  const std::uint64_t module_count = u32(8), ir_count = u32(12), native_count = u32(16);
  const std::uint64_t modules_start = file_header_size;
  const std::uint64_t irs_start = modules_start + abstract_module_header_size * module_count;
  const std::uint64_t natives_start = irs_start + ir_module_header_size * ir_count;
  const std::uint64_t headers_end = natives_start + native_image_header_size * native_count;
  if (headers_end > size) {
    fail("truncated: the header tables (" + std::to_string(module_count) +
         " abstract modules, " + std::to_string(ir_count) + " IR modules, " +
         std::to_string(native_count) + " native images; counts at " + at(8) + ") end at " +
         at(headers_end) + ", past the end of the " + std::to_string(size) + "-byte image");
  }
  metadata_start_ = headers_end;
  metadata_size_ = u64(24);
  if (metadata_size_ > size - metadata_start_) {
    fail("truncated: the metadata byte table (" + std::to_string(metadata_size_) +
         " bytes, size at " + at(24) + ") starting at " + at(metadata_start_) +
         " runs past the end of the " + std::to_string(size) + "-byte image");
  }
  binary_start_ = metadata_start_ + metadata_size_ + (8 - metadata_size_ % 8) % 8;
  binary_size_ = u64(32);
  if (binary_start_ > size || binary_size_ > size - binary_start_) {
    fail("truncated: the binary byte table (" + std::to_string(binary_size_) +
         " bytes, size at " + at(32) + ") starting at " + at(binary_start_) +
         " runs past the end of the " + std::to_string(size) + "-byte image");
  }
  const std::uint64_t end = binary_start_ + binary_size_;
  const std::uint64_t padded_end = end + (8 - end % 8) % 8;
  if (size > padded_end) {
    fail(std::to_string(size - end) + " bytes follow the binary byte table, which ends at " +
         at(end) + " (more than its padding to 8)");
  }

  // Global metadata (offset at byte 40, size at byte 48).
  metadata("global", 40, out.global_metadata);

  // Abstract modules; each claims a run of IR module and native image headers, and every
  // header must belong to exactly one module.
  std::vector<std::uint32_t> ir_owner(ir_count, UINT32_MAX), native_owner(native_count, UINT32_MAX);
  out.abstract_modules.resize(module_count);
  for (std::uint64_t m = 0; m < module_count; ++m) {
    const std::uint64_t header = modules_start + m * abstract_module_header_size;
    const std::string name = "abstract module " + std::to_string(m);
    AbstractModule& module = out.abstract_modules[m];
    metadata(name, header, module.metadata);
    const auto claim = [&](std::uint64_t count_field, std::vector<std::uint32_t>& owner,
                           const char* what) {
      const std::uint64_t count = u32(count_field), first = u32(count_field + 4);
      if (first > owner.size() || count > owner.size() - first) {
        fail(name + " (header at " + at(header) + "): " + what + " [" + std::to_string(first) +
             ", " + std::to_string(first + count) + ") (fields at " + at(count_field) +
             ") lie outside the " + std::to_string(owner.size()) + " in the file");
      }
      for (std::uint64_t i = first; i < first + count; ++i) {
        if (owner[i] != UINT32_MAX) {
          fail("abstract modules " + std::to_string(owner[i]) + " and " + std::to_string(m) +
               " both claim " + what + " " + std::to_string(i) + " (overlapping ranges, fields at " +
               at(count_field) + ")");
        }
        owner[i] = static_cast<std::uint32_t>(m);
      }
      return std::pair{first, count};
    };
    const auto [first_ir, irs] = claim(header + 16, ir_owner, "IR modules");
    const auto [first_native, natives] = claim(header + 24, native_owner, "native images");
    // IR modules and native images have the same header: metadata, then the image bytes.
    const auto read_images = [&](auto& images, std::uint64_t first, std::uint64_t count,
                                 std::uint64_t table_start, std::uint64_t header_size,
                                 const char* kind) {
      images.resize(count);
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t entry = table_start + (first + i) * header_size;
        const std::string what = name + ", " + kind + " " + std::to_string(i) + " (header " +
                                 std::to_string(first + i) + " at " + at(entry) + ")";
        metadata(what, entry, images[i].metadata);
        const std::uint64_t offset = u64(entry + 16), bytes = u64(entry + 24);
        const std::uint64_t start = locate(what + " bytes", entry + 16, offset, bytes, "binary",
                                           binary_start_, binary_size_);
        if (bytes) binary_ranges_.push_back({offset, bytes, what + " bytes"});
        images[i].bytes = image_.subspan(start, bytes);
      }
    };
    read_images(module.ir_modules, first_ir, irs, irs_start, ir_module_header_size, "IR module");
    read_images(module.native_images, first_native, natives, natives_start,
                native_image_header_size, "native image");
  }
  const auto unowned = [&](const std::vector<std::uint32_t>& owner, std::uint64_t start,
                           const char* what) {
    for (std::size_t i = 0; i < owner.size(); ++i) {
      if (owner[i] == UINT32_MAX) {
        fail(std::string(what) + " " + std::to_string(i) + " (header at " +
             at(start + 32 * i) + ") belongs to no abstract module");
      }
    }
  };
  unowned(ir_owner, irs_start, "IR module header");
  unowned(native_owner, natives_start, "native image header");
  check_overlaps(metadata_ranges_, "metadata");
  check_overlaps(binary_ranges_, "binary");
  parse_metadata();
  check_known_properties(out);
}

}  // namespace

Syclbin Syclbin::read(Bytes file) {
  Syclbin result;
  Bytes image = file;
  std::uint64_t base = 0;
  if (offload_binary::has_magic(file)) {
    image = offload_binary::find_syclbin_image(file);
    base = static_cast<std::uint64_t>(image.data() - file.data());
    result.wrapped_ = true;
  }
  Reader(image, base).read(result);
  return result;
}

Syclbin Syclbin::read_file(const std::filesystem::path& path) {
  auto mapping = std::make_shared<const MappedFile>(path);
  Syclbin result;
  try {
    result = read(mapping->bytes());
  } catch (const error& bad) {
    throw error(bad.category(), path.string() + ": " + bad.what());
  }
  result.storage_.push_back(std::move(mapping));
  return result;
}

}  // namespace plexus::syclbin
