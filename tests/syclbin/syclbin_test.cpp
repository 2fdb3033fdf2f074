// SYCLBIN version 1: the byte layout (a golden file built by hand from the reference),
// round trips, wrapped and bare files, views into the input, mapped files.
#include <catch2/catch.hpp>

#include "plexus/error.hpp"
#include "plexus/syclbin/base64.hpp"
#include "plexus/syclbin/offload_binary.hpp"
#include "syclbin_samples.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

std::string byte_array_text(const std::string& value) {
  std::vector<std::byte> raw;
  append_le(raw, value.size() * 8, 8);
  const auto bytes = bytes_of(value);
  raw.insert(raw.end(), bytes.begin(), bytes.end());
  return sb::base64::encode(raw);
}

void append_text(std::vector<std::byte>& out, const std::string& text) {
  const auto bytes = bytes_of(text);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

void pad8(std::vector<std::byte>& out) {
  while (out.size() % 8) out.push_back(std::byte{0});
}

bool inside(sb::Bytes view, const std::vector<std::byte>& file) {
  return view.data() >= file.data() && view.data() + view.size() <= file.data() + file.size();
}

}  // namespace

TEST_CASE("syclbin: the writer produces the reference's byte layout, field by field") {
  const std::string global = "[SYCLBIN/global metadata]\nstate=1|0\n";
  const std::string module = "[SYCL/kernel names]\nk=1|1\n";
  const std::string ir = "[SYCLBIN/ir module metadata]\ntype=1|0\ntarget=2|" +
                         byte_array_text("spir64") + "\n";
  const std::string native = "[SYCLBIN/native device code image metadata]\narch=2|" +
                             byte_array_text("gfx90a") + "\ntarget=2|" +
                             byte_array_text("amdgcn-amd-amdhsa") + "\n";
  const std::uint64_t metadata_size = global.size() + module.size() + ir.size() + native.size();

  // Built by hand: file header (56 bytes), one abstract-module, one IR-module and one
  // native-image header (32 bytes each), metadata table, binary table, each padded to 8.
  std::vector<std::byte> golden;
  append_le(golden, 0x53594249, 4);  // magic
  append_le(golden, 1, 4);           // version
  append_le(golden, 1, 4);           // abstract modules
  append_le(golden, 1, 4);           // IR modules
  append_le(golden, 1, 4);           // native images
  append_le(golden, 0, 4);           // padding
  append_le(golden, metadata_size, 8);
  append_le(golden, 4 + 2, 8);       // binary table: the IR bytes, then the native bytes
  append_le(golden, 0, 8);           // global metadata offset
  append_le(golden, global.size(), 8);
  REQUIRE(golden.size() == 56);
  append_le(golden, global.size(), 8);                   // module metadata offset
  append_le(golden, module.size(), 8);
  append_le(golden, 1, 4);                               // IR modules
  append_le(golden, 0, 4);                               // first IR module header
  append_le(golden, 1, 4);                               // native images
  append_le(golden, 0, 4);                               // first native image header
  REQUIRE(golden.size() == 88);
  append_le(golden, global.size() + module.size(), 8);   // IR metadata offset
  append_le(golden, ir.size(), 8);
  append_le(golden, 0, 8);                               // IR bytes offset
  append_le(golden, 4, 8);
  REQUIRE(golden.size() == 120);
  append_le(golden, global.size() + module.size() + ir.size(), 8);
  append_le(golden, native.size(), 8);
  append_le(golden, 4, 8);                               // native bytes offset
  append_le(golden, 2, 8);
  REQUIRE(golden.size() == 152);
  append_text(golden, global + module + ir + native);
  pad8(golden);
  const std::size_t binary_start = golden.size();
  append_text(golden, std::string("\x03\x02\x23\x07", 4) + "co");
  pad8(golden);

  const auto written = small_syclbin().write(sb::Wrapping::bare);
  REQUIRE(written.size() == golden.size());
  CHECK(written == golden);

  // The same fields read back at the reference's offsets.
  CHECK(written[0] == std::byte{0x49});  // 0x53594249, little-endian: "IBYS"
  CHECK(written[3] == std::byte{0x53});
  CHECK(get_le(written, 4, 4) == 1);
  CHECK(get_le(written, 8, 4) == 1);
  CHECK(get_le(written, 12, 4) == 1);
  CHECK(get_le(written, 16, 4) == 1);
  CHECK(get_le(written, 20, 4) == 0);
  CHECK(get_le(written, 24, 8) == metadata_size);
  CHECK(get_le(written, 32, 8) == 6);
  CHECK(get_le(written, 40, 8) == 0);
  CHECK(get_le(written, 48, 8) == global.size());
  CHECK(get_le(written, 72, 4) == 1);
  CHECK(get_le(written, 104, 8) == 0);
  CHECK(get_le(written, 136, 8) == 4);
  CHECK(written.size() % 8 == 0);
  CHECK(written[binary_start] == std::byte{0x03});

  const sb::Syclbin read = sb::Syclbin::read(golden);
  CHECK_FALSE(read.was_wrapped());
  CHECK(read.state() == sb::State::input);
  REQUIRE(read.abstract_modules.size() == 1);
  const auto& am = read.abstract_modules[0];
  CHECK(am.kernel_names() == std::vector<std::string>{"k"});
  REQUIRE(am.ir_modules.size() == 1);
  CHECK(am.ir_modules[0].type() == 0u);
  CHECK(am.ir_modules[0].target() == "spir64");
  CHECK(am.ir_modules[0].bytes.size() == 4);
  CHECK(am.ir_modules[0].bytes.data() == golden.data() + binary_start);  // a view, no copy
  REQUIRE(am.native_images.size() == 1);
  CHECK(am.native_images[0].arch() == "gfx90a");
  CHECK(am.native_images[0].target() == "amdgcn-amd-amdhsa");
  CHECK(am.native_images[0].bytes.data() == golden.data() + binary_start + 4);
}

TEST_CASE("syclbin: the OffloadBinary wrapper DPC++ writes, field by field") {
  const auto bare = small_syclbin().write(sb::Wrapping::bare);
  const auto wrapped = small_syclbin().write();
  REQUIRE(wrapped.size() == 72 + bare.size());
  CHECK(get_le(wrapped, 0, 4) == 0xad10ff10);  // bytes 10 ff 10 ad
  CHECK(get_le(wrapped, 4, 4) == 2);           // version
  CHECK(get_le(wrapped, 8, 8) == wrapped.size());
  CHECK(get_le(wrapped, 16, 8) == 32);         // entries offset
  CHECK(get_le(wrapped, 24, 8) == 1);          // entries count
  CHECK(get_le(wrapped, 32, 2) == 7);          // IMG_SYCLBIN
  CHECK(get_le(wrapped, 34, 2) == 8);          // OFK_SYCL
  CHECK(get_le(wrapped, 36, 4) == 0);          // flags
  CHECK(get_le(wrapped, 40, 8) == 0);          // string offset
  CHECK(get_le(wrapped, 48, 8) == 0);          // string count
  CHECK(get_le(wrapped, 56, 8) == 72);         // image offset
  CHECK(get_le(wrapped, 64, 8) == bare.size());
  CHECK(std::equal(bare.begin(), bare.end(), wrapped.begin() + 72));
}

TEST_CASE("syclbin: write, read, write gives the same bytes (wrapped and bare)") {
  const sb::Syclbin sample = sample_syclbin();
  for (const auto wrapping : {sb::Wrapping::offload_binary, sb::Wrapping::bare}) {
    const auto first = sample.write(wrapping);
    CHECK(first == sample.write(wrapping));  // deterministic
    const sb::Syclbin read = sb::Syclbin::read(first);
    CHECK(read.was_wrapped() == (wrapping == sb::Wrapping::offload_binary));
    CHECK(read.write(wrapping) == first);
    CHECK(read.global_metadata == sample.global_metadata);
    REQUIRE(read.abstract_modules.size() == 2);
    for (std::size_t m = 0; m < 2; ++m) {
      const auto& want = sample.abstract_modules[m];
      const auto& got = read.abstract_modules[m];
      CHECK(got.metadata == want.metadata);
      REQUIRE(got.ir_modules.size() == want.ir_modules.size());
      REQUIRE(got.native_images.size() == want.native_images.size());
      for (std::size_t i = 0; i < got.ir_modules.size(); ++i) {
        CHECK(got.ir_modules[i].metadata == want.ir_modules[i].metadata);
        CHECK(std::ranges::equal(got.ir_modules[i].bytes, want.ir_modules[i].bytes));
        CHECK(inside(got.ir_modules[i].bytes, first));
      }
      for (std::size_t i = 0; i < got.native_images.size(); ++i) {
        CHECK(got.native_images[i].metadata == want.native_images[i].metadata);
        CHECK(std::ranges::equal(got.native_images[i].bytes, want.native_images[i].bytes));
        CHECK(inside(got.native_images[i].bytes, first));
      }
    }
    CHECK(read.abstract_modules[0].kernel_names() == std::vector<std::string>{"saxpy", "other"});
    CHECK(read.abstract_modules[0].ir_modules[1].type() == 1u);
    CHECK(read.abstract_modules[1].ir_modules[0].type() == 3u);
  }
  // Wrapped and bare files read to the same bytes.
  CHECK(sb::Syclbin::read(sample.write()).write(sb::Wrapping::bare) ==
        sb::Syclbin::read(sample.write(sb::Wrapping::bare)).write(sb::Wrapping::bare));
}

TEST_CASE("syclbin: an empty file (no modules, no metadata) round-trips") {
  const sb::Syclbin empty;
  const auto bytes = empty.write(sb::Wrapping::bare);
  CHECK(bytes.size() == 56);
  const sb::Syclbin read = sb::Syclbin::read(bytes);
  CHECK(read.abstract_modules.empty());
  CHECK(read.global_metadata.empty());
  CHECK_FALSE(read.state().has_value());
}

TEST_CASE("syclbin: read_file maps the file and keeps it alive") {
  TempDir dir;
  const auto path = dir.path() / "sample.syclbin";
  sample_syclbin().write_file(path);
  std::optional<sb::Syclbin> copy;
  {
    const sb::Syclbin read = sb::Syclbin::read_file(path);
    CHECK(read.was_wrapped());
    copy = read;  // copies share the mapping
  }
  REQUIRE(copy->abstract_modules.size() == 2);
  const auto& bytes = copy->abstract_modules[0].native_images[0].bytes;
  CHECK(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()) == "cubin bytes");
  CHECK_THROWS_WITH(sb::Syclbin::read_file(dir.path() / "missing.syclbin"),
                    Catch::Contains("cannot open") && Catch::Contains("missing.syclbin"));
}

TEST_CASE("syclbin: files as older DPC++ writers made them are read") {
  // Old writers left the header padding uninitialised and gave IR modules only a type.
  sb::Syclbin old;
  old.global_metadata.set(sb::names::global_metadata, sb::names::state, std::uint32_t{1});
  auto& module = old.add_abstract_module();
  sb::IRModule ir;
  ir.metadata.set(sb::names::ir_module_metadata, sb::names::type, std::uint32_t{0});
  ir.bytes = old.keep(bytes_of("spv"));
  module.ir_modules.push_back(ir);
  auto bytes = old.write(sb::Wrapping::bare);
  put_le(bytes, 20, 0xdeadbeef, 4);
  const sb::Syclbin read = sb::Syclbin::read(bytes);
  CHECK(read.state() == sb::State::object);
  CHECK(read.abstract_modules[0].ir_modules[0].target().empty());
  CHECK(read.abstract_modules[0].metadata.empty());
}

TEST_CASE("syclbin: an OffloadBinary version 1 wrapper and a mid-2025 image kind are read") {
  auto wrapped = small_syclbin().write();
  put_le(wrapped, 4, 1, 4);    // version 1: the field at 24 is the entry size
  put_le(wrapped, 24, 40, 8);
  put_le(wrapped, 32, 6, 2);   // IMG_SYCLBIN was 6 for a while
  CHECK(sb::Syclbin::read(wrapped).write(sb::Wrapping::bare) ==
        small_syclbin().write(sb::Wrapping::bare));
}
