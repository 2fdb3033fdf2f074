// The benchmark kernel set (bench/kernels/*.cl, sorted, with bench/kernels/include/* as
// virtual include files and -cl-std=CL2.0), as compile requests; a directory's *.cpp files
// are SYCL free-function kernels (bench/kernels/sycl, no options). Throws
// plexus::error(io) when a file cannot be read.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "plexus/compiler.hpp"
#include "plexus/error.hpp"

namespace bench {

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw plexus::error(plexus::error_category::io, "cannot read " + file.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline std::vector<plexus::CompileRequest> load_kernels(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<plexus::VirtualFile> includes;
  if (fs::is_directory(dir / "include"))
    for (const auto& entry : fs::directory_iterator(dir / "include"))
      includes.push_back({entry.path().filename().string(), read_text(entry.path())});
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".cl" || entry.path().extension() == ".cpp")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<plexus::CompileRequest> requests;
  for (const auto& file : files) {
    plexus::CompileRequest request;
    request.source = read_text(file);
    request.source_name = file.filename().string();
    request.includes = includes;
    if (file.extension() == ".cpp")
      request.language = plexus::SourceLanguage::sycl;
    else
      request.options = {"-cl-std=CL2.0"};
    requests.push_back(std::move(request));
  }
  return requests;
}

}  // namespace bench
