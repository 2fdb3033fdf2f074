// Malformed SYCLBIN files: each is refused with a plexus::error that names the field and
// where it is; none crashes.
#include <catch2/catch.hpp>

#include "plexus/error.hpp"
#include "syclbin_samples.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

// Reading `bytes` fails with `category` and a message containing every one of `parts`.
void refused(const std::vector<std::byte>& bytes, std::initializer_list<std::string> parts,
             error_category category = error_category::invalid_argument) {
  try {
    sb::Syclbin::read(bytes);
    FAIL("the file was read");
  } catch (const error& bad) {
    INFO(bad.what());
    CHECK(bad.category() == category);
    for (const auto& part : parts) CHECK_THAT(bad.what(), Catch::Contains(part));
  }
}

// Offsets in small_syclbin().write(bare): one module header at 56, the IR header at 88, the
// native header at 120.
constexpr std::size_t module_header = 56, ir_header = 88, native_header = 120;

}  // namespace

TEST_CASE("malformed: bad magic and unsupported versions") {
  auto bytes = small_syclbin().write(sb::Wrapping::bare);
  auto bad = bytes;
  bad[0] = std::byte{'X'};
  refused(bad, {"bad magic 58 42 59 53 at byte 0", "49 42 59 53"});
  bad = bytes;
  put_le(bad, 4, 2, 4);
  refused(bad, {"SYCLBIN version 2 (field at byte 4) is not supported"}, error_category::unsupported);
  refused(bytes_of("hello, world"), {"bad magic"});
  auto wrapped = small_syclbin().write();
  put_le(wrapped, 72 + 4, 2, 4);
  refused(wrapped, {"SYCLBIN version 2 (field at byte 76)"}, error_category::unsupported);
  wrapped = small_syclbin().write();
  put_le(wrapped, 4, 3, 4);
  refused(wrapped, {"OffloadBinary wrapper: version 3 (at byte 4)"}, error_category::unsupported);
}

TEST_CASE("malformed: every truncation of a small file is a clear error") {
  for (const auto wrapping : {sb::Wrapping::bare, sb::Wrapping::offload_binary}) {
    const auto bytes = small_syclbin().write(wrapping);
    for (std::size_t length = 0; length < bytes.size(); ++length) {
      INFO("length " << length);
      const std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + length);
      // Dropping only the final padding leaves a valid file (DPC++ reads those too).
      if (wrapping == sb::Wrapping::bare && length >= bytes.size() - 2) {
        CHECK_NOTHROW(sb::Syclbin::read(prefix));
        continue;
      }
      try {
        sb::Syclbin::read(prefix);
        FAIL("a truncated file was read");
      } catch (const error& bad) {
        CHECK(bad.category() == error_category::invalid_argument);
        const std::string message = bad.what();
        CHECK((message.find("truncated") != std::string::npos ||
               message.find("runs past") != std::string::npos ||
               message.find("does not fit") != std::string::npos ||
               message.find("bad magic") != std::string::npos));
      }
    }
  }
}

TEST_CASE("malformed: tables and offsets out of range") {
  const auto bytes = small_syclbin().write(sb::Wrapping::bare);
  auto bad = bytes;
  put_le(bad, 8, 1000, 4);  // abstract-module count
  refused(bad, {"truncated: the header tables (1000 abstract modules", "counts at byte 8"});
  bad = bytes;
  put_le(bad, 24, 1u << 30, 8);
  refused(bad, {"metadata byte table", "size at byte 24", "runs past the end"});
  bad = bytes;
  put_le(bad, 32, 1000, 8);
  refused(bad, {"binary byte table", "size at byte 32"});
  bad = bytes;
  put_le(bad, 48, 100000, 8);
  refused(bad, {"global metadata: offset 0 and size 100000 (fields at byte 40)",
                "outside the", "metadata byte table"});
  bad = bytes;
  put_le(bad, ir_header + 16, 5, 8);  // IR bytes offset: 5 + 4 > 6
  refused(bad, {"abstract module 0, IR module 0", "bytes: offset 5 and size 4 (fields at byte 104)",
                "6-byte binary byte table"});
  bad = bytes;
  put_le(bad, native_header + 24, ~std::uint64_t{0}, 8);  // wraps around if added carelessly
  refused(bad, {"native image 0", "outside the 6-byte binary byte table"});
  bad = bytes;
  put_le(bad, ir_header + 8, ~std::uint64_t{0} - 10, 8);
  refused(bad, {"IR module 0", "metadata: offset", "metadata byte table"});
  bad = bytes;
  put_le(bad, module_header + 20, 1, 4);  // first IR module 1 of 1
  refused(bad, {"abstract module 0 (header at byte 56): IR modules [1, 2) (fields at byte 72) lie outside"});
  bad = bytes;
  put_le(bad, module_header + 24, 3, 4);  // three native images, the file has one
  refused(bad, {"native images [0, 3)"});
  bad = bytes;
  bad.insert(bad.end(), 16, std::byte{0});
  refused(bad, {"bytes follow the binary byte table"});
}

TEST_CASE("malformed: overlapping and unowned tables") {
  // Two modules claiming the same IR module.
  sb::Syclbin two = small_syclbin();
  two.add_abstract_module({"j"}).ir_modules.push_back(two.abstract_modules[0].ir_modules[0]);
  auto bytes = two.write(sb::Wrapping::bare);
  // Headers: modules at 56 and 88; IR modules at 120 and 152.
  put_le(bytes, 88 + 20, 0, 4);  // module 1's first IR module := 0 (module 0's)
  refused(bytes, {"abstract modules 0 and 1 both claim IR modules 0", "fields at byte 104"});

  // IR module bytes overlapping a native image's.
  bytes = small_syclbin().write(sb::Wrapping::bare);
  put_le(bytes, native_header + 16, 2, 8);  // native bytes [2, 4) inside the IR bytes [0, 4)
  refused(bytes, {"overlaps", "binary byte table"});

  // Metadata shared by two headers.
  bytes = small_syclbin().write(sb::Wrapping::bare);
  put_le(bytes, ir_header, get_le(bytes, module_header, 8), 8);
  refused(bytes, {"overlaps", "metadata byte table"});

  // A header no module claims.
  bytes = small_syclbin().write(sb::Wrapping::bare);
  put_le(bytes, module_header + 16, 0, 4);  // module 0 has no IR module any more
  refused(bytes, {"IR module header 0 (header at byte 88) belongs to no abstract module"});
}

TEST_CASE("malformed: property sets in the metadata") {
  sb::Syclbin syclbin = small_syclbin();
  auto bytes = syclbin.write(sb::Wrapping::bare);
  // Corrupt the IR module's "type=1|0" line into "type=1|x".
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const auto at = text.find("type=1|0");
  REQUIRE(at != std::string::npos);
  bytes[at + 7] = std::byte{'x'};
  refused(bytes, {"abstract module 0, IR module 0 (header 0 at byte 88) metadata",
                  "line 2: property 'type': 'x' is not a decimal"});

  // A known property with the wrong type, and an unknown state.
  syclbin = small_syclbin();
  syclbin.abstract_modules[0].ir_modules[0].metadata.set(sb::names::ir_module_metadata,
                                                         sb::names::type, sb::PropertyValue::string("0"));
  refused(syclbin.write(), {"IR module 0: [SYCLBIN/ir module metadata] type must be a 32-bit integer"});
  syclbin = small_syclbin();
  syclbin.global_metadata.set(sb::names::global_metadata, sb::names::state, std::uint32_t{7});
  refused(syclbin.write(), {"state 7 is not input (0), object (1) or executable (2)"});
}

TEST_CASE("malformed: OffloadBinary wrappers") {
  const auto good = small_syclbin().write();
  auto bad = good;
  put_le(bad, 8, good.size() + 8, 8);
  refused(bad, {"OffloadBinary wrapper: size field", "(at byte 8)"});
  bad = good;
  put_le(bad, 16, 1000, 8);
  refused(bad, {"the entry table (1 entries at offset 1000 (at byte 16))"});
  bad = good;
  put_le(bad, 24, 0, 8);
  refused(bad, {"no entries"});
  bad = good;
  put_le(bad, 64, good.size(), 8);
  refused(bad, {"entry 0: image", "(at byte 56) runs past"});
  bad = good;
  bad[72] = std::byte{0};  // the image is no SYCLBIN
  refused(bad, {"none of its 1 entries (image kinds 7) holds a SYCLBIN version 1 image"});
}
