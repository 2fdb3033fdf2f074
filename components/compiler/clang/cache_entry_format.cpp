#include "cache_entry_format.hpp"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/BLAKE3.h>

#include <array>
#include <cstring>

namespace plexus::clang_compiler {

namespace {

constexpr std::array<char, 8> magic = {'P', 'X', 'C', 'L', 'A', 'N', 'G', '\0'};
constexpr std::uint32_t frontend_kind = 1;
constexpr std::uint32_t binary_kind = 2;
constexpr std::uint32_t pch_kind = 3;
constexpr std::size_t checksum_size = 16;
constexpr std::size_t header_size = magic.size() + 4 + 4 + 8 + checksum_size;
// Nothing a compiler produces is this large; a bigger length is corruption.
constexpr std::uint64_t max_length = std::uint64_t{1} << 32;

std::array<std::uint8_t, checksum_size> checksum(std::span<const std::byte> payload) {
  return llvm::BLAKE3::hash<checksum_size>(llvm::ArrayRef<std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size()));
}

class Writer {
 public:
  void u32(std::uint32_t value) { integer(value, 4); }
  void u64(std::uint64_t value) { integer(value, 8); }
  void bytes(const void* data, std::size_t size) {
    u64(size);
    raw(data, size);
  }
  void text(const std::string& value) { bytes(value.data(), value.size()); }
  void blob(const std::vector<std::byte>& value) { bytes(value.data(), value.size()); }
  void diagnostics(const std::vector<Diagnostic>& list) {
    u64(list.size());
    for (const Diagnostic& d : list) {
      text(d.file);
      u32(d.line);
      u32(d.column);
      u32(static_cast<std::uint32_t>(d.severity));
      text(d.message);
    }
  }
  void raw(const void* data, std::size_t size) {
    const auto* begin = static_cast<const std::byte*>(data);
    out_.insert(out_.end(), begin, begin + size);
  }
  std::vector<std::byte>& out() { return out_; }

 private:
  void integer(std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) out_.push_back(static_cast<std::byte>(value >> (8 * i)));
  }
  std::vector<std::byte> out_;
};

// Every read checks the bytes left; after the first failure every read fails.
class PayloadReader {
 public:
  explicit PayloadReader(std::span<const std::byte> in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return position_ == in_.size(); }

  std::uint64_t integer(int size) {
    if (!take(size)) return 0;
    std::uint64_t value = 0;
    for (int i = 0; i < size; ++i)
      value |= std::uint64_t(std::to_integer<std::uint8_t>(in_[position_ - size + i])) << (8 * i);
    return value;
  }
  std::uint32_t u32() { return static_cast<std::uint32_t>(integer(4)); }
  std::uint64_t u64() { return integer(8); }
  std::span<const std::byte> bytes() {
    const std::uint64_t size = u64();
    if (size > max_length || !take(size)) return {};
    return in_.subspan(position_ - size, size);
  }
  std::string text() {
    const std::span<const std::byte> b = bytes();
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }
  std::vector<std::byte> blob() {
    const std::span<const std::byte> b = bytes();
    return std::vector<std::byte>(b.begin(), b.end());
  }
  // A count of items each at least `minimum` bytes long: refused when they cannot fit.
  std::uint64_t count(std::size_t minimum) {
    const std::uint64_t n = u64();
    if (ok_ && n > (in_.size() - position_) / minimum) ok_ = false;
    return ok_ ? n : 0;
  }
  std::vector<Diagnostic> diagnostics() {
    std::vector<Diagnostic> list;
    const std::uint64_t n = count(8 + 4 + 4 + 4 + 8);
    for (std::uint64_t i = 0; i < n && ok_; ++i) {
      Diagnostic d;
      d.file = text();
      d.line = u32();
      d.column = u32();
      const std::uint32_t severity = u32();
      if (severity > static_cast<std::uint32_t>(DiagnosticSeverity::error)) ok_ = false;
      d.severity = static_cast<DiagnosticSeverity>(severity);
      d.message = text();
      list.push_back(std::move(d));
    }
    return list;
  }

 private:
  bool take(std::uint64_t size) {
    if (!ok_ || size > in_.size() - position_) {
      ok_ = false;
      return false;
    }
    position_ += size;
    return true;
  }
  std::span<const std::byte> in_;
  std::size_t position_ = 0;
  bool ok_ = true;
};

std::vector<std::byte> with_header(std::uint32_t kind, std::vector<std::byte> payload) {
  Writer header;
  header.raw(magic.data(), magic.size());
  header.u32(cache_entry_format_version);
  header.u32(kind);
  header.u64(payload.size());
  const auto sum = checksum(payload);
  header.raw(sum.data(), sum.size());
  std::vector<std::byte>& out = header.out();
  out.insert(out.end(), payload.begin(), payload.end());
  return std::move(out);
}

// The payload after a valid header of `kind`, or an empty optional with `why`.
std::optional<std::span<const std::byte>> payload_of(std::span<const std::byte> value,
                                                     std::uint32_t kind, std::string& why) {
  if (value.size() < header_size) {
    why = "shorter than the entry header";
    return std::nullopt;
  }
  if (std::memcmp(value.data(), magic.data(), magic.size()) != 0) {
    why = "no entry magic";
    return std::nullopt;
  }
  PayloadReader header(value.subspan(magic.size()));
  const std::uint32_t version = header.u32();
  const std::uint32_t found_kind = header.u32();
  const std::uint64_t size = header.u64();
  if (version != cache_entry_format_version) {
    why = "entry format version " + std::to_string(version) + ", expected " +
          std::to_string(cache_entry_format_version);
    return std::nullopt;
  }
  if (found_kind != kind) {
    why = "entry of kind " + std::to_string(found_kind) + ", expected " + std::to_string(kind);
    return std::nullopt;
  }
  if (size != value.size() - header_size) {
    why = "payload of " + std::to_string(value.size() - header_size) + " bytes, header says " +
          std::to_string(size) + " (truncated?)";
    return std::nullopt;
  }
  const std::span<const std::byte> payload = value.subspan(header_size);
  const auto sum = checksum(payload);
  if (std::memcmp(value.data() + header_size - checksum_size, sum.data(), sum.size()) != 0) {
    why = "checksum mismatch";
    return std::nullopt;
  }
  return payload;
}

bool payload_complete(const PayloadReader& reader, const std::string& found_key,
                      const std::string& key, std::string& why) {
  if (!reader.ok() || !reader.at_end()) {
    why = "malformed payload";
    return false;
  }
  if (found_key != key) {
    why = "entry of another key (" + found_key + ")";
    return false;
  }
  return true;
}

}  // namespace

std::vector<std::byte> encode(const FrontendEntry& entry) {
  Writer w;
  w.text(entry.key);
  w.diagnostics(entry.diagnostics);
  w.text(entry.log);
  w.blob(entry.bitcode);
  return with_header(frontend_kind, std::move(w.out()));
}

std::vector<std::byte> encode(const BinaryEntry& entry) {
  Writer w;
  w.text(entry.key);
  w.u32(static_cast<std::uint32_t>(entry.format));
  w.diagnostics(entry.diagnostics);
  w.text(entry.log);
  w.u64(entry.kernels.size());
  for (const KernelInfo& kernel : entry.kernels) {
    w.text(kernel.name);
    w.u64(kernel.args.size());
    for (const KernelArgInfo& arg : kernel.args) {
      w.text(arg.name);
      w.u32(static_cast<std::uint32_t>(arg.kind));
      w.u64(arg.size);
      w.u32(arg.written ? 1u : 0u);
    }
    for (std::size_t size : kernel.required_work_group_size) w.u64(size);
    w.u32((kernel.uses_barriers ? 1u : 0u) | (kernel.uses_local_memory ? 2u : 0u) |
          (kernel.bounds_checked ? 4u : 0u) | (kernel.cancellable ? 8u : 0u));
  }
  w.blob(entry.binary);
  return with_header(binary_kind, std::move(w.out()));
}

std::vector<std::byte> encode(const PchEntry& entry) {
  Writer w;
  w.text(entry.key);
  w.u64(entry.disk_files.size());
  for (const auto& [path, identity] : entry.disk_files) {
    w.text(path);
    w.text(identity);
  }
  w.text(entry.bytes);
  return with_header(pch_kind, std::move(w.out()));
}

std::optional<PchEntry> decode_pch_entry(std::span<const std::byte> value, const std::string& key,
                                         std::string& why) {
  const auto payload = payload_of(value, pch_kind, why);
  if (!payload) return std::nullopt;
  PayloadReader r(*payload);
  PchEntry entry;
  entry.key = r.text();
  const std::uint64_t files = r.count(8 + 8);
  for (std::uint64_t i = 0; i < files && r.ok(); ++i) {
    std::string path = r.text();
    entry.disk_files.emplace_back(std::move(path), r.text());
  }
  entry.bytes = r.text();
  if (!payload_complete(r, entry.key, key, why)) return std::nullopt;
  if (entry.bytes.empty()) {
    why = "no PCH";
    return std::nullopt;
  }
  return entry;
}

std::optional<FrontendEntry> decode_frontend_entry(std::span<const std::byte> value,
                                                   const std::string& key, std::string& why) {
  const auto payload = payload_of(value, frontend_kind, why);
  if (!payload) return std::nullopt;
  PayloadReader r(*payload);
  FrontendEntry entry;
  entry.key = r.text();
  entry.diagnostics = r.diagnostics();
  entry.log = r.text();
  entry.bitcode = r.blob();
  if (!payload_complete(r, entry.key, key, why)) return std::nullopt;
  if (entry.bitcode.empty()) {
    why = "no bitcode";
    return std::nullopt;
  }
  return entry;
}

std::optional<BinaryEntry> decode_binary_entry(std::span<const std::byte> value,
                                               const std::string& key, std::string& why) {
  const auto payload = payload_of(value, binary_kind, why);
  if (!payload) return std::nullopt;
  PayloadReader r(*payload);
  BinaryEntry entry;
  entry.key = r.text();
  const std::uint32_t format = r.u32();
  if (format > static_cast<std::uint32_t>(BinaryFormat::native)) {
    why = "unknown binary format " + std::to_string(format);
    return std::nullopt;
  }
  entry.format = static_cast<BinaryFormat>(format);
  entry.diagnostics = r.diagnostics();
  entry.log = r.text();
  const std::uint64_t kernels = r.count(8 + 8 + 3 * 8 + 4);
  for (std::uint64_t i = 0; i < kernels && r.ok(); ++i) {
    KernelInfo kernel;
    kernel.name = r.text();
    const std::uint64_t args = r.count(8 + 4 + 8 + 4);
    for (std::uint64_t a = 0; a < args && r.ok(); ++a) {
      KernelArgInfo arg;
      arg.name = r.text();
      const std::uint32_t kind = r.u32();
      if (kind > static_cast<std::uint32_t>(KernelArgKind::image)) {
        why = "unknown kernel argument kind";
        return std::nullopt;
      }
      arg.kind = static_cast<KernelArgKind>(kind);
      arg.size = r.u64();
      arg.written = (r.u32() & 1u) != 0;
      kernel.args.push_back(std::move(arg));
    }
    for (std::size_t& size : kernel.required_work_group_size) size = r.u64();
    const std::uint32_t flags = r.u32();
    if (flags & ~15u) {
      why = "unknown kernel flags " + std::to_string(flags);
      return std::nullopt;
    }
    kernel.uses_barriers = (flags & 1u) != 0;
    kernel.uses_local_memory = (flags & 2u) != 0;
    kernel.bounds_checked = (flags & 4u) != 0;
    kernel.cancellable = (flags & 8u) != 0;
    entry.kernels.push_back(std::move(kernel));
  }
  entry.binary = r.blob();
  if (!payload_complete(r, entry.key, key, why)) return std::nullopt;
  return entry;
}

}  // namespace plexus::clang_compiler
