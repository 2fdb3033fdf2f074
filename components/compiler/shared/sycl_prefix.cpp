#include "sycl_prefix.hpp"

#include "frontend_options.hpp"
#include "sycl_source.hpp"

namespace plexus::compiler_shared {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Whether `source`, after blank lines and comments, begins with the line
// `#include <sycl/sycl.hpp>` (blanks allowed where the preprocessor allows them, a comment
// after it). A line continuation anywhere before its end is not followed: no.
bool begins_with_sycl_include(std::string_view source) {
  std::size_t i = 0;
  const auto skip_blanks = [&] {
    while (i < source.size() && blank(source[i])) ++i;
  };
  for (;;) {  // blank lines and comments
    skip_blanks();
    if (i >= source.size()) return false;
    if (source[i] == '\n') {
      ++i;
    } else if (source.substr(i, 2) == "//") {
      const std::size_t end = source.find('\n', i);
      if (end == std::string_view::npos) return false;
      if (source.substr(i, end - i).find('\\') != std::string_view::npos) return false;
      i = end + 1;
    } else if (source.substr(i, 2) == "/*") {
      const std::size_t end = source.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 2;
    } else {
      break;
    }
  }
  if (source[i] != '#') return false;
  ++i;
  skip_blanks();
  if (source.substr(i, 7) != "include") return false;
  i += 7;
  skip_blanks();
  constexpr std::string_view header = "<sycl/sycl.hpp>";
  if (source.substr(i, header.size()) != header) return false;
  i += header.size();
  skip_blanks();
  if (i >= source.size() || source[i] == '\n') return true;
  if (source.substr(i, 2) == "//")
    return source.substr(i, source.find('\n', i) - i).find('\\') == std::string_view::npos;
  return source.substr(i, 2) == "/*";  // a comment that may span lines: it is only a comment
}

bool shadows_a_header(const std::string& name) {
  if (name.starts_with(std::string(SyclSource::header_dir) + "/")) return false;  // Plexus's
  return name.empty() || name.starts_with("/") || name.starts_with("sycl/") ||
         name.starts_with("CL/") || name.starts_with(SyclSource::header_dir) ||
         name.starts_with("opencl-c") || name == SyclPrefix::file_name;
}

bool changes_include_paths(const std::string& token) {
  return token.starts_with("-I") || token.starts_with("-i") || token.starts_with("--include") ||
         token.starts_with("-F") || token.starts_with("-nostdinc") ||
         token.starts_with("--sysroot") || token.starts_with("-nobuiltininc");
}

}  // namespace

bool SyclPrefix::applies(const CompileRequest& request, std::string& why) {
  if (request.language != SourceLanguage::sycl) {
    why = "not SYCL source";
    return false;
  }
  if (!begins_with_sycl_include(request.source)) {
    why = "the source does not begin with #include <sycl/sycl.hpp>";
    return false;
  }
  for (const std::string& token : FrontendOptions::user_tokens(request)) {
    if (changes_include_paths(token)) {
      why = "option '" + token + "' changes where headers are found";
      return false;
    }
  }
  for (const VirtualFile& file : request.includes) {
    if (shadows_a_header(file.name)) {
      why = "the virtual include file '" + file.name + "' could take the place of a header";
      return false;
    }
  }
  return true;
}

}  // namespace plexus::compiler_shared
