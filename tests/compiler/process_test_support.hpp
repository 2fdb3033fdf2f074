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

// One process compiler for the whole test program.
inline Compiler& process_compiler() {
  static const std::shared_ptr<Compiler> compiler = load_compiler("process");
  return *compiler;
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

}  // namespace plexus::test
