// Random single-byte mutations and truncations of small SYCLBIN files: the reader always
// answers with the file's contents or a plexus::error. CI runs it under AddressSanitizer
// and UndefinedBehaviorSanitizer (scripts/sanitize.sh asan), so that any read out of
// bounds fails it.
#include <catch2/catch.hpp>
#include <random>

#include "plexus/error.hpp"
#include "syclbin_samples.hpp"

using namespace plexus;
using namespace plexus::test;

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer does not work under every debugger or container; leaks are not the point.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

namespace {

// Reads `bytes` and, when that works, writes and reads the result again (it must read).
std::size_t try_read(const std::vector<std::byte>& bytes) {
  // A copy of exactly the right size, so that AddressSanitizer sees reads past the end.
  const std::unique_ptr<std::byte[]> exact(new std::byte[bytes.size()]);
  std::copy(bytes.begin(), bytes.end(), exact.get());
  try {
    const sb::Syclbin read = sb::Syclbin::read({exact.get(), bytes.size()});
    const auto again = read.write(sb::Wrapping::bare);
    sb::Syclbin::read(again);
    return 1;
  } catch (const error& refused) {
    CHECK(std::string(refused.what()).size() > 10);
    return 0;
  }
}

}  // namespace

TEST_CASE("fuzz: thousands of single-byte mutations never crash or read out of bounds") {
  std::mt19937 random(20261122);
  std::size_t read = 0, total = 0;
  for (const auto wrapping : {sb::Wrapping::bare, sb::Wrapping::offload_binary}) {
    for (const auto& sample : {small_syclbin(), sample_syclbin()}) {
      const auto bytes = sample.write(wrapping);
      for (int round = 0; round < 1500; ++round) {
        auto mutated = bytes;
        const std::size_t at = random() % mutated.size();
        const int how = random() % 3;
        if (how == 0) mutated[at] = std::byte(random() & 0xff);
        if (how == 1) mutated[at] ^= std::byte(1u << (random() % 8));
        if (how == 2) mutated[at] = std::byte{0xff};
        read += try_read(mutated);
        ++total;
      }
    }
  }
  INFO(read << " of " << total << " mutations still read");
  CHECK(total == 6000);
  CHECK(read > 0);  // mutations of payload bytes leave a valid file
}

TEST_CASE("fuzz: every prefix of a file is read or refused, never crashes") {
  for (const auto wrapping : {sb::Wrapping::bare, sb::Wrapping::offload_binary}) {
    const auto bytes = sample_syclbin().write(wrapping);
    for (std::size_t length = 0; length <= bytes.size(); ++length) {
      try_read({bytes.begin(), bytes.begin() + length});
    }
  }
}
