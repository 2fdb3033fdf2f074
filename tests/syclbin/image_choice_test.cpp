// Which image each device gets (image_choice.hpp), over made-up devices and files (no
// runtime): native for the architecture first, the device's format order, translation only
// through what the compiler produces, host bitcode only for its own architecture, the state
// rules; and the [Plexus/kernel info] encoding (round trip, malformed values).
#include <catch2/catch.hpp>

#include "plexus/error.hpp"
#include "plexus/syclbin/image_choice.hpp"
#include "plexus/syclbin/kernel_metadata.hpp"

namespace sb = plexus::syclbin;
using plexus::BinaryFormat;

namespace {

const std::vector<std::byte> payload{std::byte{1}, std::byte{2}, std::byte{3}};

plexus::DeviceInfo device(std::string arch, std::vector<BinaryFormat> formats) {
  plexus::DeviceInfo info;
  info.name = arch + "-device";
  info.architecture = std::move(arch);
  info.formats = std::move(formats);
  return info;
}

// SPIR-V, PTX and x86_64 host bitcode, plus a native image for sm_90.
sb::Syclbin fat_file() {
  sb::Syclbin file;
  file.set_state(sb::State::executable);
  sb::AbstractModule& module = file.add_abstract_module({"k"});
  module.ir_modules.push_back(
      sb::Syclbin::make_ir_module(sb::IRType::spirv, "spir64-unknown-unknown", payload));
  module.ir_modules.push_back(
      sb::Syclbin::make_ir_module(sb::IRType::ptx, "nvptx64-nvidia-cuda", payload));
  module.ir_modules.push_back(
      sb::Syclbin::make_ir_module(sb::IRType::llvm_bitcode, "x86_64-pc-linux-gnu", payload));
  module.native_images.push_back(
      sb::Syclbin::make_native_image("sm_90", "nvptx64-nvidia-cuda", payload));
  return file;
}

const std::vector<BinaryFormat> all_targets{BinaryFormat::spirv, BinaryFormat::spir_bitcode,
                                            BinaryFormat::ptx, BinaryFormat::llvm_bitcode};

}  // namespace

TEST_CASE("image choice: native for the architecture, else IR as is, else translated") {
  const auto host = device("x86_64", {BinaryFormat::llvm_bitcode});
  const auto gpu = device("sm_90", {BinaryFormat::ptx});
  const auto older_gpu = device("sm_80", {BinaryFormat::ptx});
  const auto pocl = device("skylake", {BinaryFormat::spir_bitcode, BinaryFormat::opencl_c_source});
  const auto il = device("il", {BinaryFormat::spir_bitcode, BinaryFormat::spirv});
  const auto arm = device("aarch64", {BinaryFormat::llvm_bitcode});
  const auto plans = sb::plan_images(fat_file(), {host, gpu, older_gpu, pocl, il, arm}, all_targets);
  REQUIRE(plans.size() == 6);
  auto only = [&](std::size_t d) -> const sb::ImageChoice& {
    INFO(plans[d].failure);
    REQUIRE(plans[d].choices.size() == 1);
    return plans[d].choices[0];
  };
  CHECK((!only(0).native && only(0).index == 2 && !only(0).compile));  // host bitcode
  CHECK((only(1).native && only(1).index == 0));                        // sm_90 native
  CHECK_THAT(only(1).reason, Catch::Contains("native code for the device's architecture 'sm_90'"));
  CHECK((!only(2).native && only(2).index == 1 && only(2).format == BinaryFormat::ptx));
  CHECK((only(3).index == 0 && only(3).compile && only(3).load_format == BinaryFormat::spir_bitcode));
  CHECK_THAT(only(3).reason, Catch::Contains("translated through the compiler to spir-bitcode"));
  // A device that loads SPIR-V takes it as is, even if it prefers SPIR bitcode.
  CHECK((only(4).index == 0 && !only(4).compile && only(4).load_format == BinaryFormat::spirv));
  // x86_64 bitcode does not fit an aarch64 host.
  CHECK_THAT(plans[5].failure, Catch::Contains("no image of abstract module 0 fits"));
}

TEST_CASE("image choice: without a compiler nothing is translated") {
  const auto pocl = device("skylake", {BinaryFormat::spir_bitcode});
  const auto plans = sb::plan_images(fat_file(), {pocl}, {});
  REQUIRE(plans.size() == 1);
  CHECK_THAT(plans[0].failure, Catch::Contains("the device loads spir-bitcode"));
  CHECK_THAT(plans[0].failure, Catch::Contains("the compiler produces none"));
  CHECK(plans[0].choices.empty());
}

TEST_CASE("image choice: state input compiles IR and skips native, object refuses imports") {
  const auto host = device("x86_64", {BinaryFormat::llvm_bitcode});
  const auto gpu = device("sm_90", {BinaryFormat::ptx});
  sb::Syclbin file = fat_file();
  file.set_state(sb::State::input);
  auto plans = sb::plan_images(file, {host, gpu}, all_targets);
  REQUIRE(plans[0].choices.size() == 1);
  CHECK((plans[0].choices[0].compile && plans[0].choices[0].index == 2));
  CHECK_THAT(plans[0].choices[0].reason, Catch::Contains("state input: compiled to llvm-bitcode"));
  // PTX is no compiler input: with the native image skipped, nothing fits the GPU.
  CHECK_THAT(plans[1].failure, Catch::Contains("state input: native images are not used"));

  file.set_state(sb::State::object);
  plans = sb::plan_images(file, {host}, all_targets);
  CHECK(plans[0].failure.empty());
  file.abstract_modules[0].metadata.set("SYCL/imported symbols", "f", 1u);
  plans = sb::plan_images(file, {host}, all_targets);
  CHECK_THAT(plans[0].failure, Catch::Contains("imports symbols"));

  file.global_metadata.set(std::string(sb::names::global_metadata), "state",
                           sb::PropertyValue::string("2"));
  CHECK_THROWS_WITH(sb::plan_images(file, {host}, all_targets),
                    Catch::Contains("found a byte array"));
}

TEST_CASE("image choice: formats and what the file offers") {
  CHECK(sb::format_of(sb::Syclbin::make_ir_module(sb::IRType::llvm_bitcode, "spir64", payload)) ==
        BinaryFormat::spir_bitcode);
  CHECK(sb::format_of(sb::Syclbin::make_native_image("gfx90a", "amdgcn-amd-amdhsa", payload)) ==
        BinaryFormat::amdgcn);
  CHECK(sb::format_of(sb::Syclbin::make_native_image("x", "x86_64-linux", payload)) ==
        BinaryFormat::native);
  CHECK(sb::offered_images(fat_file()) ==
        "abstract module 0: IR module 0 (SPIR-V, spir64-unknown-unknown), IR module 1 (PTX, "
        "nvptx64-nvidia-cuda), IR module 2 (LLVM bitcode, x86_64-pc-linux-gnu), native image 0 "
        "(sm_90, nvptx64-nvidia-cuda)");
  CHECK(sb::offered_images(sb::Syclbin{}) == "no abstract modules");
}

TEST_CASE("[Plexus/kernel info]: round trip and malformed values") {
  plexus::KernelInfo kernel;
  kernel.name = "k";
  kernel.args = {{"x", plexus::KernelArgKind::global_pointer, 8},
                 {"a", plexus::KernelArgKind::scalar, 4},
                 {"scratch", plexus::KernelArgKind::local_pointer, 8}};
  kernel.args[0].written = true;
  kernel.required_work_group_size = {16, 2, 1};
  kernel.uses_barriers = true;
  kernel.bounds_checked = true;
  sb::PropertySetRegistry metadata;
  sb::set_kernel_info(metadata, {kernel});
  // Through the text form, as a file holds it.
  const auto parsed = sb::PropertySetRegistry::parse(metadata.to_text());
  const auto back = sb::kernel_info(parsed, {"k"});
  REQUIRE(back.size() == 1);
  CHECK(back[0].name == "k");
  REQUIRE(back[0].args.size() == 3);
  CHECK(back[0].args[2].name == "scratch");
  CHECK(back[0].args[2].kind == plexus::KernelArgKind::local_pointer);
  CHECK(back[0].args[1].size == 4);
  CHECK(back[0].args[0].written);
  CHECK_FALSE(back[0].args[2].written);
  CHECK(back[0].required_work_group_size == std::array<std::size_t, 3>{16, 2, 1});
  CHECK(back[0].uses_barriers);
  CHECK_FALSE(back[0].uses_local_memory);
  CHECK(back[0].bounds_checked);
  // A name the set does not describe: no info (the compiler inspects the IR instead).
  CHECK(sb::kernel_info(parsed, {"k", "other"}).empty());
  CHECK(sb::kernel_info(sb::PropertySetRegistry{}, {"k"}).empty());

  const auto* value = metadata.find(sb::kernel_info_set, "k")->as_byte_array();
  std::vector<std::byte> cut(value->bytes.begin(), value->bytes.end() - 3);
  sb::PropertySetRegistry bad;
  bad.set(sb::kernel_info_set, "k", sb::ByteArray::from_bytes(cut));
  CHECK_THROWS_WITH(sb::kernel_info(bad, {"k"}),
                    Catch::Contains("[Plexus/kernel info] k: truncated in an argument name"));
  std::vector<std::byte> wrong_version = value->bytes;
  wrong_version[0] = std::byte{9};
  bad.set(sb::kernel_info_set, "k", sb::ByteArray::from_bytes(wrong_version));
  CHECK_THROWS_WITH(sb::kernel_info(bad, {"k"}), Catch::Contains("unknown encoding version 9"));
  bad.set(sb::kernel_info_set, "k", 5u);
  CHECK_THROWS_WITH(sb::kernel_info(bad, {"k"}), Catch::Contains("not a byte array"));
}

TEST_CASE("[Plexus/kernel info]: cancellable kernels in encoding version 3, others still in 2") {
  plexus::KernelInfo plain;
  plain.name = "plain";
  plain.args = {{"x", plexus::KernelArgKind::global_pointer, 8}};
  plexus::KernelInfo cancellable = plain;
  cancellable.name = "cancellable";
  cancellable.cancellable = true;
  sb::PropertySetRegistry metadata;
  sb::set_kernel_info(metadata, {plain, cancellable});
  const auto version_of = [&](const char* name) {
    return std::to_integer<int>(metadata.find(sb::kernel_info_set, name)->as_byte_array()->bytes[0]);
  };
  CHECK(version_of("plain") == 2);  // readable by Plexus versions before 3
  CHECK(version_of("cancellable") == 3);
  const auto back =
      sb::kernel_info(sb::PropertySetRegistry::parse(metadata.to_text()), {"plain", "cancellable"});
  REQUIRE(back.size() == 2);
  CHECK_FALSE(back[0].cancellable);
  CHECK(back[1].cancellable);
  REQUIRE(back[1].args.size() == 1);  // the cell is not an argument

  // The cancellable flag in a version-2 value: refused (a reader of 2 would drop the cell).
  std::vector<std::byte> bytes = metadata.find(sb::kernel_info_set, "cancellable")->as_byte_array()->bytes;
  bytes[0] = std::byte{2};
  sb::PropertySetRegistry bad;
  bad.set(sb::kernel_info_set, "cancellable", sb::ByteArray::from_bytes(bytes));
  CHECK_THROWS_WITH(sb::kernel_info(bad, {"cancellable"}),
                    Catch::Contains("unknown flags 8 for encoding version 2"));
}
