// Helpers for the compiler/process tests: load a compiler plugin (process or clang) by
// name through the core's loader, validate SPIR-V with spirv-val, compare KernelInfo.
// Not thread-safe except compile().
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compiler_test_support.hpp"
#include "test_support.hpp"

namespace plexus::test {

// A fresh compiler `name` with `options` (TOML lines of its [compiler.<name>] table).
inline std::shared_ptr<Compiler> load_compiler(const std::string& name,
                                               const std::string& options = "") {
  const PluginListing listing =
      PluginRegistry::inspect(compiler_plugin_dir() / ("libplexus_compiler_" + name + ".so"));
  REQUIRE(listing.kind == ComponentKind::compiler);
  REQUIRE(listing.name == name);
  const auto library = PluginLibrary::load(listing);
  const Config config = Config::from_string(
      "[compiler]\nuse = \"" + name + "\"\n[compiler." + name + "]\n" + options + "\n",
      "compiler_test.toml");
  NoComponents none;
  PluginContext context{config.options_for(ComponentKind::compiler, name), none};
  const std::shared_ptr<Component> component = library->create(context);
  auto* compiler = dynamic_cast<Compiler*>(component.get());
  REQUIRE(compiler != nullptr);
  return std::shared_ptr<Compiler>(component, compiler);
}

// One process compiler for the whole test program.
inline Compiler& process_compiler() {
  static const std::shared_ptr<Compiler> compiler = load_compiler("process");
  return *compiler;
}

// spirv-val --target-env opencl2.0 on the module: its exit status (output in `output`).
inline int spirv_val_status(const std::vector<std::byte>& spirv, std::string& output) {
  TempDir dir;
  const fs::path file = dir.write("module.spv", as_text(spirv));
  const std::string command =
      std::string(PLEXUS_TEST_SPIRV_VAL) + " --target-env opencl2.0 " + file.string() + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline void check_valid_spirv(const CompileResult& result) {
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::spirv);
  REQUIRE(result.binary.size() > 20);
  if (std::string(PLEXUS_TEST_SPIRV_VAL).empty()) {
    WARN("spirv-val was not found when this test was configured: SPIR-V not validated");
    return;
  }
  std::string output;
  const int status = spirv_val_status(result.binary, output);
  INFO("spirv-val: " << output);
  CHECK(status == 0);
}

// KernelInfo as one line of text, so two lists compare with a readable difference.
inline std::string describe(const std::vector<KernelInfo>& kernels) {
  std::ostringstream text;
  for (const KernelInfo& kernel : kernels) {
    text << kernel.name << "(";
    for (const KernelArgInfo& arg : kernel.args)
      text << arg.name << ":" << static_cast<int>(arg.kind) << ":" << arg.size << " ";
    text << ") wg=" << kernel.required_work_group_size[0] << ","
         << kernel.required_work_group_size[1] << "," << kernel.required_work_group_size[2]
         << " barriers=" << kernel.uses_barriers << " local=" << kernel.uses_local_memory << "; ";
  }
  return text.str();
}

inline const Diagnostic* first_error_of(const CompileResult& result) {
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.severity == DiagnosticSeverity::error) return &diagnostic;
  return nullptr;
}

}  // namespace plexus::test
