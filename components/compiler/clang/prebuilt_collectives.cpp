#include "prebuilt_collectives.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "cache_entry_format.hpp"
#include "plexus/log.hpp"
#include "precompiled_headers.hpp"

namespace plexus::clang_compiler {

namespace {

std::filesystem::path file_of(const std::string& dir, const std::string& key) {
  return std::filesystem::path(dir) / (key + ".entry");
}

}  // namespace

PrebuiltCollectives PrebuiltCollectives::from_options(const ComponentOptions& options) {
  std::string output = options.get<std::string>("sycl_collectives_output", "");
  if (std::optional<std::string> chosen = options.find<std::string>("sycl_collectives_dir"))
    return {*chosen, std::move(output)};
  if (const char* environment = std::getenv("PLEXUS_SYCL_COLLECTIVES_DIR");
      environment && *environment)
    return {environment, std::move(output)};
  std::error_code ignored;
  for (const char* candidate : {PLEXUS_SYCL_COLLECTIVES_BUILD, PLEXUS_SYCL_COLLECTIVES_INSTALL})
    if (std::filesystem::is_directory(candidate, ignored)) return {candidate, std::move(output)};
  return {"", std::move(output)};
}

std::shared_ptr<const PrecompiledHeader> PrebuiltCollectives::load(const std::string& key) const {
  if (dir_.empty()) return nullptr;
  const std::filesystem::path path = file_of(dir_, key);
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;  // another command line: built on demand
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::string why;
  std::optional<PchEntry> entry = decode_pch_entry(
      std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()), key, why);
  if (!entry) {
    logger().debug("compiler clang: prebuilt SYCL collectives {} not used ({}): building them",
                   path.string(), why);
    return nullptr;
  }
  auto library = std::make_shared<PrecompiledHeader>();
  library->key = key;
  library->bytes = std::move(entry->bytes);
  library->disk_files = std::move(entry->disk_files);
  if (!disk_files_unchanged(*library)) {
    logger().debug("compiler clang: prebuilt SYCL collectives {} not used (a file it read "
                   "changed): building them", path.string());
    return nullptr;
  }
  return library;
}

void PrebuiltCollectives::save(const PrecompiledHeader& library) const {
  if (output_dir_.empty()) return;
  const std::vector<std::byte> value = encode(PchEntry{library.key, library.disk_files, library.bytes});
  const std::filesystem::path path = file_of(output_dir_, library.key);
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  std::error_code failed;
  std::filesystem::create_directories(output_dir_, failed);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(value.data()), static_cast<std::streamsize>(value.size()));
    if (!out) failed = std::make_error_code(std::errc::io_error);
  }
  if (!failed) std::filesystem::rename(temporary, path, failed);
  if (failed)
    logger().warn("compiler clang: could not write the SYCL collectives to {}: {}", path.string(),
                  failed.message());
}

}  // namespace plexus::clang_compiler
