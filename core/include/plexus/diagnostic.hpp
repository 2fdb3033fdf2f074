// Diagnostic: one message from a compiler, as structured data. Plain data.
#pragma once

#include <cstdint>
#include <string>

namespace plexus {

enum class DiagnosticSeverity { note, warning, error };

struct Diagnostic {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  DiagnosticSeverity severity = DiagnosticSeverity::error;
  std::string message;
};

}  // namespace plexus
