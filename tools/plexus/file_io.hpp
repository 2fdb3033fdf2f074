// The tool's inputs and outputs: an input that is a directory or cannot be read is a
// plexus::error(io) saying so; "-" as an output is standard output (messages about it then
// go to standard error, see report_stream). Not thread-safe (main only).
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>

namespace plexus::tool {

std::string read_input(const std::filesystem::path& file);
void write_output(const std::string& path, std::span<const std::byte> bytes);
// Where to say "wrote PATH": standard error when PATH is "-" (standard output holds the
// bytes), else standard output.
std::ostream& report_stream(const std::string& path);
// "standard output" for "-", else the path.
std::string output_name(const std::string& path);

}  // namespace plexus::tool
