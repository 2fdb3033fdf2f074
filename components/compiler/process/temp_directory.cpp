#include "temp_directory.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "plexus/error.hpp"

namespace plexus::process_compiler {

TempDirectory::TempDirectory() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = (base && *base ? std::string(base) : std::string("/tmp"));
  if (pattern.back() != '/') pattern += '/';
  pattern += "plexus-process-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr)
    throw error(error_category::io, "compiler 'process': cannot make a temporary directory '" +
                                        pattern + "': " + std::strerror(errno));
  path_ = buffer.data();
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDirectory::file(std::string_view relative) const {
  return path_ + "/" + std::string(relative);
}

bool TempDirectory::write(std::string_view relative, std::string_view content) const {
  const std::filesystem::path target = file(relative);
  std::error_code failed;
  std::filesystem::create_directories(target.parent_path(), failed);
  if (failed) return false;
  std::ofstream stream(target, std::ios::binary | std::ios::trunc);
  stream.write(content.data(), static_cast<std::streamsize>(content.size()));
  return static_cast<bool>(stream.flush());
}

bool TempDirectory::read(std::string_view relative, std::string& content) const {
  std::ifstream stream(file(relative), std::ios::binary);
  if (!stream) return false;
  content.assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
  return !stream.bad();
}

}  // namespace plexus::process_compiler
