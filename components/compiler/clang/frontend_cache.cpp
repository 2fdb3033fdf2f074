#include "frontend_cache.hpp"

#include <llvm/Config/llvm-config.h>

#include <cstdint>

#include "compiler_source_digest.hpp"
#include "key_hasher.hpp"
#include "plexus/log.hpp"

namespace plexus::clang_compiler {

void add_spec(KeyHasher& hasher, const TargetSpec& spec) {
  hasher.add(spec.triple).add(spec.cpu).add(spec.features.size());
  for (const std::string& feature : spec.features) hasher.add(feature);
  hasher.add(spec.typed_pointers ? "typed" : "opaque")
      .add(spec.fake_address_space_map ? "fake-as-map" : "as-map")
      .add(spec.opencl_extensions.size());
  for (const std::string& extension : spec.opencl_extensions) hasher.add(extension);
}

namespace {

std::string joined(const std::vector<std::string>& arguments) {
  std::string out;
  for (const std::string& argument : arguments) {
    if (!out.empty()) out += ' ';
    out += argument;
  }
  return out;
}

}  // namespace

std::string device_of(std::string_view level, const TargetSpec& spec) {
  std::string device = std::string(level) + "/" + spec.triple;
  if (!spec.cpu.empty()) device += "/" + spec.cpu;
  return device;
}

FrontendCache::FrontendCache(CacheStore& store, std::string component_version)
    : store_(store),
      identity_("llvm " LLVM_VERSION_STRING " compiler/clang " + component_version +
                " entry format " + std::to_string(cache_entry_format_version) +
                " sources " + compiler_shared::compiler_source_digest()) {}

FrontendCache::Key FrontendCache::frontend_key(const Frontend::Preprocessed& preprocessed,
                                               SourceLanguage language,
                                               const TargetSpec& spec) const {
  KeyHasher hasher;
  hasher.add("frontend").add(identity_).add(static_cast<std::uint64_t>(language));
  add_spec(hasher, spec);
  hasher.add(preprocessed.arguments.size());
  for (const std::string& argument : preprocessed.arguments) hasher.add(argument);
  hasher.add(preprocessed.text);
  Key key;
  key.hash = hasher.hex();
  key.store_key = {device_of("frontend", spec), key.hash, "", joined(preprocessed.arguments)};
  return key;
}

FrontendCache::Key FrontendCache::input_key(const CompileRequest& request,
                                            const std::vector<std::string>& options,
                                            const TargetSpec& spec) const {
  KeyHasher hasher;
  hasher.add("input").add(identity_).add(static_cast<std::uint64_t>(request.language));
  add_spec(hasher, spec);
  hasher.add(request.source_name).add(options.size());
  for (const std::string& option : options) hasher.add(option);
  hasher.add(request.source);
  Key key;
  key.hash = hasher.hex();
  key.store_key = {device_of("input", spec), key.hash, "", joined(options)};
  return key;
}

FrontendCache::Key FrontendCache::binary_key(const Key& level1, const CompileRequest& request,
                                             const TargetSpec& spec,
                                             const std::string& libraries) const {
  KeyHasher hasher;
  hasher.add("binary").add(identity_).add(level1.hash);
  hasher.add(to_string(request.target)).add(request.target_architecture);
  add_spec(hasher, spec);
  hasher.add(request.kernel_name).add(libraries);
  // amdgcn binaries were relocatable objects before they became linked code objects: an
  // entry stored then must not be taken for one now.
  if (request.target == BinaryFormat::amdgcn) hasher.add("amdgcn: code object linked by lld");
  Key key;
  key.hash = hasher.hex();
  key.store_key = {device_of("binary/" + std::string(to_string(request.target)), spec), key.hash,
                   "", "kernel_name=" + request.kernel_name + " " + level1.store_key.build_options};
  return key;
}

FrontendCache::Key FrontendCache::pch_key(const std::string& hash,
                                          const std::vector<std::string>& arguments,
                                          const std::string& device) const {
  KeyHasher hasher;
  hasher.add(device == "pch/sycl" ? std::string("pch") : device).add(identity_).add(hash);
  Key key;
  key.hash = hasher.hex();
  key.store_key = {device, key.hash, "", joined(arguments)};
  return key;
}

template <typename Entry>
std::optional<Entry> FrontendCache::load_entry(const Key& key, Decoder<Entry> decode) const {
  std::optional<std::vector<std::byte>> value = store_.load(key.store_key);
  if (!value) return std::nullopt;
  std::string why;
  std::optional<Entry> entry = decode(*value, key.hash, why);
  if (!entry) discard(key, why);
  return entry;
}

template <typename Entry>
void FrontendCache::store_entry(const Key& key, Entry entry) const {
  entry.key = key.hash;
  store_.store(key.store_key, encode(entry));
}

std::optional<FrontendEntry> FrontendCache::load_frontend(const Key& key) const {
  return load_entry(key, decode_frontend_entry);
}

void FrontendCache::store_frontend(const Key& key, FrontendEntry entry) const {
  store_entry(key, std::move(entry));
}

std::optional<BinaryEntry> FrontendCache::load_binary(const Key& key) const {
  return load_entry(key, decode_binary_entry);
}

void FrontendCache::store_binary(const Key& key, BinaryEntry entry) const {
  store_entry(key, std::move(entry));
}

std::optional<PchEntry> FrontendCache::load_pch(const Key& key) const {
  return load_entry(key, decode_pch_entry);
}

void FrontendCache::store_pch(const Key& key, PchEntry entry) const {
  store_entry(key, std::move(entry));
}

void FrontendCache::discard(const Key& key, const std::string& why) const {
  logger().debug("compiler clang: cache entry {} {} is unusable ({}): erased, compiling",
                 key.store_key.device, key.hash, why);
  store_.erase(key.store_key);
}

}  // namespace plexus::clang_compiler
