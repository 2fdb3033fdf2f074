#include "file_io.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "plexus/error.hpp"

namespace plexus::tool {

std::string read_input(const std::filesystem::path& file) {
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) {
    throw error(error_category::io, "'" + file.string() + "' is a directory, not a file");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw error(error_category::io, "cannot read '" + file.string() + "': " +
                                        (std::filesystem::exists(file, ignored)
                                             ? "permission denied"
                                             : "no such file"));
  }
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void write_output(const std::string& path, std::span<const std::byte> bytes) {
  if (path == "-") {
    std::cout.write(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<std::streamsize>(bytes.size()));
    if (!std::cout.flush()) throw error(error_category::io, "cannot write to standard output");
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw error(error_category::io, "cannot write '" + path + "'");
}

std::ostream& report_stream(const std::string& path) { return path == "-" ? std::cerr : std::cout; }

std::string output_name(const std::string& path) { return path == "-" ? "standard output" : path; }

}  // namespace plexus::tool
