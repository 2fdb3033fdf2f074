#include "direct_cache.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <chrono>
#include <cstdint>
#include <cstring>

#include "key_hasher.hpp"
#include "plexus/log.hpp"

namespace plexus::clang_compiler {

namespace {

constexpr std::string_view manifest_magic = "PXDIRECT1";

struct FileState {
  std::string path;
  std::uint64_t size = 0;
  std::int64_t mtime = 0;  // nanoseconds since the epoch
  std::string hash;        // BLAKE3 of the content, hex
};

std::optional<FileState> stat_file(const std::string& path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) || !llvm::sys::fs::is_regular_file(status))
    return std::nullopt;
  return FileState{path, status.getSize(),
                   static_cast<std::int64_t>(
                       status.getLastModificationTime().time_since_epoch().count()),
                   ""};
}

std::optional<std::string> content_hash(const std::string& path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) return std::nullopt;
  return KeyHasher().add((*buffer)->getBuffer()).hex();
}

// Length-prefixed fields: "<decimal length>:<bytes>".
void put(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

class Reader {
 public:
  explicit Reader(std::string_view text) : rest_(text) {}
  std::optional<std::string> field() {
    const std::size_t colon = rest_.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 19) return std::nullopt;
    std::uint64_t size = 0;
    for (char c : rest_.substr(0, colon)) {
      if (c < '0' || c > '9') return std::nullopt;
      size = size * 10 + static_cast<std::uint64_t>(c - '0');
    }
    rest_.remove_prefix(colon + 1);
    if (size > rest_.size()) return std::nullopt;
    std::string value(rest_.substr(0, size));
    rest_.remove_prefix(size);
    return value;
  }
  std::optional<std::int64_t> number() {
    std::optional<std::string> text = field();
    if (!text || text->empty()) return std::nullopt;
    try {
      std::size_t used = 0;
      const long long value = std::stoll(*text, &used);
      if (used != text->size()) return std::nullopt;
      return value;
    } catch (...) {
      return std::nullopt;
    }
  }
  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

std::string working_directory() {
  llvm::SmallString<256> path;
  if (llvm::sys::fs::current_path(path)) return "";
  return path.str().str();
}

}  // namespace

FrontendCache::Key DirectCache::key(const CompileRequest& request, const TargetSpec& spec,
                                    const std::string& libraries) const {
  KeyHasher hasher;
  hasher.add("direct").add(cache_.identity()).add(static_cast<std::uint64_t>(request.language));
  add_spec(hasher, spec);
  hasher.add(to_string(request.target)).add(request.target_architecture).add(request.kernel_name);
  hasher.add(libraries).add(working_directory()).add(request.source_name);
  hasher.add(request.options.size());
  for (const std::string& option : request.options) hasher.add(option);
  hasher.add(request.includes.size());
  for (const VirtualFile& file : request.includes) hasher.add(file.name).add(file.content);
  hasher.add(request.registered_names.size());
  for (const std::string& name : request.registered_names) hasher.add(name);
  hasher.add(request.source);
  FrontendCache::Key key;
  key.hash = hasher.hex();
  key.store_key = {device_of("direct/" + std::string(to_string(request.target)), spec), key.hash,
                   "", ""};
  return key;
}

std::optional<FrontendCache::Key> DirectCache::resolve(const FrontendCache::Key& direct) const {
  std::optional<std::vector<std::byte>> value = cache_.store().load(direct.store_key);
  if (!value) return std::nullopt;
  const std::string_view text(reinterpret_cast<const char*>(value->data()), value->size());
  Reader reader(text);
  FrontendCache::Key level2;
  std::optional<std::string> magic = reader.field(), owner = reader.field(),
                             hash = reader.field(), device = reader.field(),
                             image = reader.field(), constants = reader.field(),
                             options = reader.field();
  std::optional<std::int64_t> count = reader.number();
  if (!magic || *magic != manifest_magic || !owner || *owner != direct.hash || !hash ||
      !device || !image || !constants || !options || !count || *count < 0) {
    cache_.discard(direct, "the direct-mode manifest does not decode");
    return std::nullopt;
  }
  for (std::int64_t i = 0; i < *count; ++i) {
    std::optional<std::string> path = reader.field(), file_hash = reader.field();
    std::optional<std::int64_t> size = reader.number(), mtime = reader.number();
    if (!path || !file_hash || !size || !mtime) {
      cache_.discard(direct, "the direct-mode manifest does not decode");
      return std::nullopt;
    }
    const std::optional<FileState> now = stat_file(*path);
    if (!now) return std::nullopt;  // gone: the slow path reports it
    if (static_cast<std::int64_t>(now->size) == *size && now->mtime == *mtime) continue;
    if (content_hash(*path) != *file_hash) return std::nullopt;  // changed
  }
  if (!reader.done()) {
    cache_.discard(direct, "the direct-mode manifest has trailing bytes");
    return std::nullopt;
  }
  level2.hash = std::move(*hash);
  level2.store_key = {std::move(*device), std::move(*image), std::move(*constants),
                      std::move(*options)};
  return level2;
}

void DirectCache::record(const FrontendCache::Key& direct, const FrontendCache::Key& level2,
                         const std::vector<std::string>& disk_files) const {
  std::string out;
  put(out, manifest_magic);
  put(out, direct.hash);
  put(out, level2.hash);
  put(out, level2.store_key.device);
  put(out, level2.store_key.image);
  put(out, level2.store_key.spec_constants);
  put(out, level2.store_key.build_options);
  put(out, std::to_string(disk_files.size()));
  // A file changed within the last seconds may still be changing (or have changed since
  // the preprocessor read it): no manifest then, as ccache does.
  const std::int64_t too_new = static_cast<std::int64_t>(
      (std::chrono::system_clock::now() - std::chrono::seconds(2)).time_since_epoch() /
      std::chrono::nanoseconds(1));
  for (const std::string& path : disk_files) {
    std::optional<FileState> state = stat_file(path);
    std::optional<std::string> hash = content_hash(path);
    if (!state || !hash || state->mtime > too_new) {
      logger().debug("compiler clang: no direct-mode manifest: '{}' is {}", path,
                     state && hash ? "too new" : "unreadable");
      return;
    }
    put(out, path);
    put(out, *hash);
    put(out, std::to_string(state->size));
    put(out, std::to_string(state->mtime));
  }
  const auto* bytes = reinterpret_cast<const std::byte*>(out.data());
  cache_.store().store(direct.store_key, std::span<const std::byte>(bytes, out.size()));
}

}  // namespace plexus::clang_compiler
