// Test helper: SYCLBIN files made by the real `plexus compile --syclbin` of this build tree
// (PLEXUS_BINARY_DIR/bin/plexus), with a config that selects the clang compiler.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "test_support.hpp"

namespace plexus::test {

// Compiles `source` (written to `dir`/NAME.cl) to `dir`/NAME.syclbin for `targets` (e.g.
// "--target spirv --target ptx --target host"); REQUIREs that the tool succeeds.
inline fs::path compile_syclbin(const TempDir& dir, const std::string& name,
                                const std::string& source, const std::string& targets) {
  const char* binary_dir = std::getenv("PLEXUS_BINARY_DIR");
  REQUIRE(binary_dir != nullptr);
  const fs::path config = dir.write("tool.toml",
                                    "[backends]\nuse = [\"host\"]\n[compiler]\nuse = \"clang\"\n"
                                    "[cache]\nuse = \"memory\"\n");
  const fs::path input = dir.write(name + ".cl", source);
  const fs::path output = dir.path() / (name + ".syclbin");
  const std::string command = "'" + (fs::path(binary_dir) / "bin" / "plexus").string() +
                              "' compile '" + input.string() + "' --config '" + config.string() +
                              "' --syclbin " + targets + " -o '" + output.string() +
                              "' > '" + (dir.path() / (name + ".log")).string() + "' 2>&1";
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
  REQUIRE(fs::exists(output));
  return output;
}

}  // namespace plexus::test
