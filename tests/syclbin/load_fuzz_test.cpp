// Mutation fuzz of SYCLBIN loading, what `plexus syclbin plan --load` does: files made by
// the real `plexus compile --syclbin` (host bitcode, SPIR-V) get random single-byte
// mutations and truncations and are loaded on the host device (the bitcode as is, the
// SPIR-V translated by compiler/clang). LLVM's bitcode reader and the SPIR-V translator
// crashed the process on such files (issue 15); every file must now load or be refused
// with a plexus::error, and the test process must survive.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <random>

#include "plexus/plexus.hpp"
#include "plexus/syclbin/bundle.hpp"
#include "runtime_test_support.hpp"
#include "syclbin_tool.hpp"

namespace sb = plexus::syclbin;

namespace {

const char* const source = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)";

std::vector<std::byte> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

}  // namespace

TEST_CASE("syclbin load fuzz: mutated files load or fail with a plexus::error",
          "[syclbin][fuzz]") {
  plexus::test::TempDir dir;
  auto runtime = plexus::test::make_runtime({"inorder", "whole"}, "\"host\"");
  std::mt19937 random(20261125);
  std::size_t total = 0, loaded = 0, refused_by_llvm = 0;
  for (const char* targets : {"--target host", "--target spirv"}) {
    const std::string name = std::string("saxpy-") + (targets + 9);
    const std::vector<std::byte> bytes =
        read_all(plexus::test::compile_syclbin(dir, name, source, targets));
    for (int round = 0; round < 150; ++round) {
      std::vector<std::byte> mutated = bytes;
      const std::size_t at = random() % mutated.size();
      const int how = random() % 4;
      if (how == 0) mutated[at] = std::byte(random() & 0xff);
      if (how == 1) mutated[at] ^= std::byte(1u << (random() % 8));
      if (how == 2)
        for (int i = 0; i < 8; ++i) mutated[random() % mutated.size()] = std::byte(random());
      if (how == 3) mutated.resize(at);
      ++total;
      try {
        const plexus::KernelBundle bundle =
            sb::load_bundle(*runtime, sb::Bytes(mutated.data(), mutated.size()));
        ++loaded;
      } catch (const plexus::error& refused) {
        const std::string what = refused.what();
        INFO(name << " round " << round << ": " << what);
        CHECK(what.size() > 10);
        if (what.find("ended by signal") != std::string::npos ||
            what.find("called exit(") != std::string::npos)
          ++refused_by_llvm;
      }
    }
  }
  WARN(total << " mutated SYCLBIN files: " << loaded << " loaded, " << total - loaded
             << " refused with a plexus::error; " << refused_by_llvm
             << " of them ended LLVM's reader or the translator in the isolated child");
  CHECK(total == 300);
  CHECK(loaded > 0);
}
