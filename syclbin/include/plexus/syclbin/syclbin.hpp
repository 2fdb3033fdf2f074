// SYCLBIN version 1: DPC++'s container for separately compiled SYCL device code
// (shared/reference/syclbin.md). A Syclbin holds global metadata (property sets, "state")
// and abstract modules; each abstract module has its own metadata (kernel names, ...), IR
// modules (SPIR-V, PTX, AMDGCN, LLVM bitcode, each with a target triple) and native device
// code images (each with an architecture).
//
// Ownership: image payloads are views (std::span), never copies. read() views the caller's
// bytes, which must outlive the result; read_file() maps the file and the Syclbin keeps the
// mapping alive; keep() stores bytes a builder hands over. Copies of a Syclbin share that
// storage. Reading and writing are const and may run concurrently; mutation may not.
//
// Errors: malformed input throws plexus::error(invalid_argument) whose message names the
// field and its byte offset in the file; an unsupported version throws
// plexus::error(unsupported); files that cannot be opened throw plexus::error(io).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/syclbin/export.hpp"
#include "plexus/syclbin/property_set.hpp"

namespace plexus::syclbin {

using Bytes = std::span<const std::byte>;

inline constexpr std::uint32_t magic = 0x53594249;  // little-endian: bytes 49 42 59 53
inline constexpr std::uint32_t format_version = 1;

// Sizes of the version 1 headers (every one aligned to 8).
inline constexpr std::size_t file_header_size = 56;
inline constexpr std::size_t abstract_module_header_size = 32;
inline constexpr std::size_t ir_module_header_size = 32;
inline constexpr std::size_t native_image_header_size = 32;

// Property-set names and keys DPC++ uses.
namespace names {
inline constexpr std::string_view global_metadata = "SYCLBIN/global metadata";
inline constexpr std::string_view ir_module_metadata = "SYCLBIN/ir module metadata";
inline constexpr std::string_view native_image_metadata =
    "SYCLBIN/native device code image metadata";
inline constexpr std::string_view kernel_names = "SYCL/kernel names";
inline constexpr std::string_view state = "state";    // u32, global metadata
inline constexpr std::string_view type = "type";      // u32, IR module
inline constexpr std::string_view target = "target";  // byte array: a target triple
inline constexpr std::string_view arch = "arch";      // byte array, native image
}  // namespace names

enum class State : std::uint32_t { input = 0, object = 1, executable = 2 };
PLEXUS_SYCLBIN_API std::string_view to_string(State state);
PLEXUS_SYCLBIN_API std::optional<State> parse_state(std::string_view text);  // input, object, executable

// The IR module "type" property: 0 SPIR-V, 1 PTX, 2 AMDGCN as DPC++ encodes them; 3 (LLVM
// bitcode, e.g. host or SPIR bitcode, told apart by the triple) is a Plexus addition that
// DPC++ does not define. A reader keeps any value it finds.
enum class IRType : std::uint32_t { spirv = 0, ptx = 1, amdgcn = 2, llvm_bitcode = 3 };
PLEXUS_SYCLBIN_API std::string to_string(IRType type);  // "SPIR-V", ..., "unknown (7)"
// "spirv", "ptx", "amdgcn", "llvm-bc" (also "bc", "llvm").
PLEXUS_SYCLBIN_API std::optional<IRType> parse_ir_type(std::string_view text);

struct PLEXUS_SYCLBIN_API IRModule {
  PropertySetRegistry metadata;  // [SYCLBIN/ir module metadata] type, target
  Bytes bytes;

  std::optional<std::uint32_t> type() const;  // the raw "type" value, if present
  std::string target() const;                 // the triple; empty if absent
};

struct PLEXUS_SYCLBIN_API NativeImage {
  PropertySetRegistry metadata;  // [SYCLBIN/native device code image metadata] arch, target
  Bytes bytes;

  std::string arch() const;
  std::string target() const;
};

struct PLEXUS_SYCLBIN_API AbstractModule {
  PropertySetRegistry metadata;  // [SYCL/kernel names], [SYCL/device requirements], ...
  std::vector<IRModule> ir_modules;
  std::vector<NativeImage> native_images;

  std::vector<std::string> kernel_names() const;  // the keys of [SYCL/kernel names]
};

// How write() packages the file: inside the LLVM OffloadBinary that DPC++ writes (one entry,
// image kind IMG_SYCLBIN), or the bare SYCLBIN bytes.
enum class Wrapping { offload_binary, bare };

class PLEXUS_SYCLBIN_API Syclbin {
 public:
  PropertySetRegistry global_metadata;
  std::vector<AbstractModule> abstract_modules;

  // --- reading
  // Parses a wrapped or bare SYCLBIN in `file`; payloads are views into `file`.
  static Syclbin read(Bytes file);
  // Maps the file read-only; the result keeps the mapping alive.
  static Syclbin read_file(const std::filesystem::path& path);
  // Whether the input was wrapped in an OffloadBinary (false for a built object).
  bool was_wrapped() const { return wrapped_; }

  // --- building
  std::optional<State> state() const;  // the global "state", if present
  void set_state(State state);
  // A new abstract module whose metadata lists these kernels in [SYCL/kernel names].
  AbstractModule& add_abstract_module(const std::vector<std::string>& kernel_names = {});
  static IRModule make_ir_module(IRType type, std::string_view triple, Bytes bytes);
  static NativeImage make_native_image(std::string_view arch, std::string_view triple,
                                       Bytes bytes);
  // Stores `bytes` in this object (and its copies) and returns a view of them.
  Bytes keep(std::vector<std::byte> bytes);

  // --- writing: the same object always gives the same bytes (padding is zero).
  std::vector<std::byte> write(Wrapping wrapping = Wrapping::offload_binary) const;
  void write_file(const std::filesystem::path& path,
                  Wrapping wrapping = Wrapping::offload_binary) const;

 private:
  std::vector<std::shared_ptr<const void>> storage_;
  bool wrapped_ = false;
};

}  // namespace plexus::syclbin
