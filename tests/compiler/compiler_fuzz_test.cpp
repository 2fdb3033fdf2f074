// Mutation fuzz of compiler/clang's untrusted inputs, in the style of the SYCLBIN reader's
// fuzz test: real kernels (bench/kernels) compiled to SPIR bitcode, host bitcode and
// SPIR-V, then random single-byte mutations and truncations of those bytes compiled again
// as llvm_bitcode / spirv inputs. LLVM's bitcode reader and the SPIR-V translator crash or
// assert on some of them; the compiler must answer every one (a module, or a failed
// result with a message) and the test process must survive. The count of inputs that
// ended the isolated child (signal or exit) is reported: each would have ended the process.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>

#include "compiler_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Seed {
  std::string name;
  std::string bytes;
  SourceLanguage language;
  BinaryFormat target;  // what the mutated input is compiled to
};

std::vector<Seed> seeds() {
  std::vector<Seed> all;
  for (const char* kernel : {"saxpy", "jacobi", "matmul"}) {
    const std::string path = std::string(PLEXUS_TEST_KERNEL_DIR) + "/" + kernel + ".cl";
    const std::string source = read_text(path);
    const auto compiled = [&](BinaryFormat format) {
      CompileRequest compile =
          request(source, format, {"-I" + std::string(PLEXUS_TEST_KERNEL_DIR) + "/include"});
      compile.source_name = path;  // its #include "..." beside it
      const CompileResult result = clang_compiler().compile(compile);
      INFO(kernel << ": " << result.log);
      REQUIRE(result.succeeded);
      return as_text(result.binary);
    };
    all.push_back({std::string(kernel) + ".spir.bc", compiled(BinaryFormat::spir_bitcode),
                   SourceLanguage::llvm_bitcode, BinaryFormat::spirv});
    all.push_back({std::string(kernel) + ".host.bc", compiled(BinaryFormat::llvm_bitcode),
                   SourceLanguage::llvm_bitcode, BinaryFormat::llvm_bitcode});
    all.push_back({std::string(kernel) + ".spv", compiled(BinaryFormat::spirv),
                   SourceLanguage::spirv, BinaryFormat::spir_bitcode});
  }
  return all;
}

bool ended_child(const CompileResult& result) {
  return result.log.find("it was ended by signal") != std::string::npos ||
         result.log.find("it called exit(") != std::string::npos;
}

}  // namespace

TEST_CASE("compiler fuzz: mutated real bitcode and SPIR-V never end the process",
          "[compiler][fuzz]") {
  std::mt19937 random(20261125);
  const int rounds = 120;
  std::size_t total = 0, compiled = 0, contained = 0;
  for (const Seed& seed : seeds()) {
    for (int round = 0; round < rounds; ++round) {
      std::string mutated = seed.bytes;
      const int how = random() % 5;
      const std::size_t at = random() % mutated.size();
      if (how == 0) mutated[at] = static_cast<char>(random() & 0xff);
      if (how == 1) mutated[at] ^= static_cast<char>(1u << (random() % 8));
      if (how == 2) mutated[at] = '\xff';
      if (how == 3) {  // several bytes at once
        for (int i = 0; i < 8; ++i) mutated[random() % mutated.size()] = static_cast<char>(random());
      }
      if (how == 4) mutated.resize(at);
      const CompileResult result = clang_compiler().compile(
          request(mutated, seed.target, {}, seed.language));
      ++total;
      if (result.succeeded) {
        ++compiled;
      } else {
        INFO(seed.name << " round " << round << ": " << result.log);
        CHECK(result.log.size() > 10);
        if (ended_child(result)) ++contained;
      }
    }
  }
  WARN(total << " mutated inputs: " << compiled << " compiled, " << total - compiled
             << " refused, " << contained << " of them ended LLVM's reader or the translator "
             << "in the isolated child (each would have ended the process)");
  CHECK(total == 9 * rounds);
  CHECK(compiled > 0);  // mutations of payload bytes leave valid modules
}
