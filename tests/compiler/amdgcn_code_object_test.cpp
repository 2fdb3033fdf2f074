// The amdgcn target's output is a loadable HSA code object (what hipModuleLoadData takes),
// checked with llvm-readelf as a loader sees it: a shared ELF object for EM_AMDGPU, a kernel
// descriptor (<kernel>.kd) per kernel among its dynamic symbols, and the amdhsa metadata
// note with the architecture asked for and a kernel entry per kernel giving its argument
// layout (names, offsets, sizes, value kinds), from both compiler components.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compiler_test_support.hpp"

namespace {

using namespace plexus;
using namespace plexus::test;

const char* const two_kernels = R"(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
__kernel void block_sum(__global const float* x, __local float* part, __global float* out) {
  size_t l = get_local_id(0);
  part[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    float s = 0;
    for (size_t k = 0; k < get_local_size(0); ++k) s += part[k];
    out[get_group_id(0)] = s;
  }
}
)";

std::string run(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  REQUIRE(::pclose(pipe) == 0);
  return output;
}

struct Argument {
  std::map<std::string, std::string> fields;  // ".name" -> "a", ".offset" -> "0", ...
};
struct KernelEntry {
  std::map<std::string, std::string> fields;  // ".name", ".symbol", ...
  std::vector<Argument> args;
};

std::string trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t");
  const auto last = text.find_last_not_of(" \t\r");
  text = first == std::string::npos ? "" : text.substr(first, last - first + 1);
  if (text.rfind("!str ", 0) == 0) text = text.substr(5);
  return text;
}

// The amdhsa.kernels list of llvm-readelf --notes (YAML: "  - " opens a kernel, "      - "
// an argument of its .args).
std::vector<KernelEntry> kernels_in_notes(const std::string& notes) {
  std::vector<KernelEntry> kernels;
  std::istringstream lines(notes);
  std::string line;
  bool in_kernels = false, in_args = false;
  while (std::getline(lines, line)) {
    if (line.rfind("amdhsa.kernels:", 0) == 0) {
      in_kernels = true;
      continue;
    }
    if (!in_kernels) continue;
    if (!line.empty() && line[0] != ' ') break;  // the next top-level key
    const auto indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    std::string rest = line.substr(indent);
    if (indent == 2 && rest.rfind("- ", 0) == 0) {
      kernels.emplace_back();
      rest = rest.substr(2);
      in_args = false;
    } else if (indent == 6 && rest.rfind("- ", 0) == 0) {
      REQUIRE_FALSE(kernels.empty());
      kernels.back().args.emplace_back();
      rest = rest.substr(2);
      in_args = true;
    } else if (indent == 4) {
      in_args = false;
    }
    if (kernels.empty()) continue;
    const auto colon = rest.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = rest.substr(0, colon), value = trimmed(rest.substr(colon + 1));
    if (key == ".args") continue;
    if (in_args && !kernels.back().args.empty())
      kernels.back().args.back().fields[key] = value;
    else
      kernels.back().fields[key] = value;
  }
  return kernels;
}

const KernelEntry* entry(const std::vector<KernelEntry>& kernels, const std::string& name) {
  for (const KernelEntry& kernel : kernels)
    if (kernel.fields.count(".name") && kernel.fields.at(".name") == name) return &kernel;
  return nullptr;
}

void check_argument(const KernelEntry& kernel, std::size_t index, const std::string& name,
                    const std::string& offset, const std::string& size, const std::string& kind) {
  INFO("argument " << index << " of " << kernel.fields.at(".name"));
  REQUIRE(kernel.args.size() > index);
  const auto& fields = kernel.args[index].fields;
  CHECK(fields.count(".name") == 1);
  if (fields.count(".name")) CHECK(fields.at(".name") == name);
  CHECK(fields.at(".offset") == offset);
  CHECK(fields.at(".size") == size);
  CHECK(fields.at(".value_kind") == kind);
}

}  // namespace

TEST_CASE("amdgcn: a linked HSA code object with a kernel entry per kernel", "[compiler][amdgcn]") {
  for (const auto& compiler : compilers_under_test()) {
    const auto targets = compiler->targets();
    if (std::find(targets.begin(), targets.end(), BinaryFormat::amdgcn) == targets.end()) {
      WARN("this LLVM has no AMDGPU code generator: skipped");
      return;
    }
    CompileRequest compile = request(two_kernels, BinaryFormat::amdgcn);
    compile.target_architecture = "gfx90a";
    const CompileResult result = compiler->compile(compile);
    INFO(result.log);
    REQUIRE(result.succeeded);
    REQUIRE(result.kernels.size() == 2);

    const auto file = std::filesystem::temp_directory_path() /
                      ("plexus-amdgcn-test-" + std::to_string(::getpid()) + ".hsaco");
    {
      std::ofstream out(file, std::ios::binary);
      out.write(reinterpret_cast<const char*>(result.binary.data()),
                static_cast<std::streamsize>(result.binary.size()));
    }
    const std::string readelf = PLEXUS_TEST_LLVM_READELF;
    const std::string header = run(readelf + " --file-header --dyn-syms " + file.string());
    const std::string notes = run(readelf + " --notes " + file.string());
    std::filesystem::remove(file);
    INFO(header);
    INFO(notes);

    CHECK_THAT(header, Catch::Contains("DYN (Shared object file)"));
    CHECK_THAT(header, Catch::Contains("EM_AMDGPU"));
    for (const char* kernel : {"vadd", "block_sum"})
      CHECK_THAT(header, Catch::Matches("[\\s\\S]*OBJECT +GLOBAL +[A-Z]+ +[0-9]+ " +
                                        std::string(kernel) + "\\.kd\\n[\\s\\S]*"));
    CHECK_THAT(notes, Catch::Contains("NT_AMDGPU_METADATA"));
    CHECK_THAT(notes, Catch::Contains("amdhsa.target:   amdgcn-amd-amdhsa--gfx90a"));

    const std::vector<KernelEntry> kernels = kernels_in_notes(notes);
    REQUIRE(kernels.size() == 2);
    const KernelEntry* vadd = entry(kernels, "vadd");
    const KernelEntry* block_sum = entry(kernels, "block_sum");
    REQUIRE(vadd != nullptr);
    REQUIRE(block_sum != nullptr);
    CHECK(vadd->fields.at(".symbol") == "vadd.kd");
    CHECK(block_sum->fields.at(".symbol") == "block_sum.kd");
    check_argument(*vadd, 0, "a", "0", "8", "global_buffer");
    check_argument(*vadd, 1, "b", "8", "8", "global_buffer");
    check_argument(*vadd, 2, "c", "16", "8", "global_buffer");
    check_argument(*vadd, 3, "n", "24", "4", "by_value");
    check_argument(*block_sum, 0, "x", "0", "8", "global_buffer");
    check_argument(*block_sum, 1, "part", "8", "4", "dynamic_shared_pointer");
    check_argument(*block_sum, 2, "out", "16", "8", "global_buffer");
    CHECK(std::stoul(vadd->fields.at(".kernarg_segment_size")) >= 28);
  }
}

TEST_CASE("amdgcn: without an architecture the code object is for gfx906", "[compiler][amdgcn]") {
  const auto targets = clang_compiler().targets();
  if (std::find(targets.begin(), targets.end(), BinaryFormat::amdgcn) == targets.end()) return;
  const CompileResult result = clang_compiler().compile(request(vector_add_source, BinaryFormat::amdgcn));
  INFO(result.log);
  REQUIRE(result.succeeded);
  CHECK(as_text(result.binary).find("amdgcn-amd-amdhsa--gfx906") != std::string::npos);
}
