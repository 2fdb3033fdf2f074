#include "clang_output_parser.hpp"

#include <charconv>
#include <optional>
#include <vector>

#include "frontend_options.hpp"

namespace plexus::process_compiler {

namespace {

struct Severity {
  std::string_view marker;
  DiagnosticSeverity severity;
};
constexpr Severity severities[] = {{": fatal error: ", DiagnosticSeverity::error},
                                   {": error: ", DiagnosticSeverity::error},
                                   {": warning: ", DiagnosticSeverity::warning},
                                   {": note: ", DiagnosticSeverity::note},
                                   {": remark: ", DiagnosticSeverity::note}};

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool is_caret_line(std::string_view line) {
  bool caret = false;
  for (char c : line) {
    if (c == '^')
      caret = true;
    else if (c != ' ' && c != '\t' && c != '~')
      return false;
  }
  return caret;
}

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  if (text.empty()) return std::nullopt;
  auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (failed != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "FILE:LINE:COL" (or "FILE:LINE") into its parts; false when it is not one.
bool split_location(std::string_view location, std::string& file, unsigned& line,
                    unsigned& column) {
  // A tool may put its own name first: "llvm-as-15: /tmp/x/input.ll:2:10".
  if (const std::size_t tool = location.rfind(": "); tool != std::string_view::npos)
    location.remove_prefix(tool + 2);
  const std::size_t last = location.rfind(':');
  if (last == std::string_view::npos) return false;
  const std::optional<unsigned> tail = number(location.substr(last + 1));
  if (!tail) return false;
  const std::size_t before = location.rfind(':', last == 0 ? 0 : last - 1);
  if (before != std::string_view::npos && last > 0) {
    if (const std::optional<unsigned> middle =
            number(location.substr(before + 1, last - before - 1))) {
      file = std::string(location.substr(0, before));
      line = *middle;
      column = *tail;
      return !file.empty();
    }
  }
  file = std::string(location.substr(0, last));
  line = *tail;
  column = 0;
  return !file.empty();
}

}  // namespace

std::string PathNames::name_of(const std::string& path) const {
  if (path == main_file) return shown;
  const std::string prefix = temp_dir + "/";
  if (path.starts_with(prefix)) return path.substr(prefix.size());
  return path;
}

std::string PathNames::replace(std::string text) const {
  auto replace_all = [&text](const std::string& from, const std::string& to) {
    if (from.empty()) return;
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace_all(main_file, shown);
  replace_all(temp_dir + "/", "");
  replace_all(temp_dir, ".");
  return text;
}

void ClangOutputParser::parse(std::string_view output, const PathNames& names,
                              compiler_shared::DiagnosticLog& log,
                              const std::string& at_error_limit) {
  const std::vector<std::string_view> lines = lines_of(output);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    for (const Severity& severity : severities) {
      const std::string_view bare = severity.marker.substr(2);  // "error: " at the start
      Diagnostic diagnostic{{}, 0, 0, severity.severity, {}};
      std::string_view source_line;
      if (line.starts_with(bare)) {
        diagnostic.message = names.replace(std::string(line.substr(bare.size())));
      } else {
        const std::size_t at = line.find(severity.marker);
        if (at == std::string_view::npos) continue;
        std::string file;
        if (!split_location(line.substr(0, at), file, diagnostic.line, diagnostic.column)) continue;
        diagnostic.file = names.name_of(file);
        diagnostic.message = names.replace(std::string(line.substr(at + severity.marker.size())));
        if (i + 2 < lines.size() && is_caret_line(lines[i + 2])) source_line = lines[i + 1];
      }
      if (!at_error_limit.empty() &&
          compiler_shared::FrontendOptions::is_too_many_errors(diagnostic.message))
        diagnostic.message = at_error_limit;
      log.add(std::move(diagnostic), source_line);
      break;
    }
  }
}

}  // namespace plexus::process_compiler
