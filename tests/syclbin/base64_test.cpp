#include <catch2/catch.hpp>
#include <random>

#include "plexus/error.hpp"
#include "plexus/syclbin/base64.hpp"
#include "syclbin_samples.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

std::vector<std::byte> raw(std::initializer_list<unsigned> values) {
  std::vector<std::byte> bytes;
  for (unsigned v : values) bytes.push_back(std::byte(v));
  return bytes;
}

// u64 little-endian bit size, then the payload: what a byte-array property encodes.
std::vector<std::byte> sized(std::uint64_t bits, const std::vector<std::byte>& payload) {
  std::vector<std::byte> bytes;
  append_le(bytes, bits, 8);
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

}  // namespace

TEST_CASE("base64: the reference's vectors (bits least-significant first, no padding)") {
  // u32 {1, 2, 4}: 96 bits.
  const auto three = sized(96, raw({1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0}));
  CHECK(syclbin::base64::encode(three) == "gBAAAAAAAAQAAAAACAAAAQAAAAA");
  CHECK(syclbin::base64::decode("gBAAAAAAAAQAAAAACAAAAQAAAAA") == three);
  // u32 {4}: 32 bits.
  const auto one = sized(32, raw({4, 0, 0, 0}));
  CHECK(syclbin::base64::encode(one) == "gAAAAAAAAAABAAAA");
  CHECK(syclbin::base64::decode("gAAAAAAAAAABAAAA") == one);
}

TEST_CASE("base64: the bit order differs from RFC 4648") {
  CHECK(syclbin::base64::encode(raw({0xff})) == "/D");      // RFC: "/w=="
  CHECK(syclbin::base64::encode(raw({0x01})) == "BA");      // RFC: "AQ=="
  CHECK(syclbin::base64::encode(raw({0x01, 0x02})) == "BIA");
  CHECK(syclbin::base64::encode(raw({0x01, 0x02, 0x03})) == "BIwA");
  CHECK(syclbin::base64::encode({}).empty());
  CHECK(syclbin::base64::encoded_size(1) == 2);
  CHECK(syclbin::base64::encoded_size(2) == 3);
  CHECK(syclbin::base64::encoded_size(3) == 4);
  CHECK(syclbin::base64::encoded_size(20) == 27);
}

TEST_CASE("base64: every length and byte value round-trips") {
  std::mt19937 random(7);
  for (std::size_t length = 0; length < 70; ++length) {
    std::vector<std::byte> bytes(length);
    for (auto& b : bytes) b = std::byte(random() & 0xff);
    const std::string text = syclbin::base64::encode(bytes);
    CHECK(text.size() == syclbin::base64::encoded_size(length));
    CHECK(syclbin::base64::decode(text) == bytes);
  }
}

TEST_CASE("base64: bad input is an error that says where") {
  try {
    syclbin::base64::decode("gAA=AAAA");
    FAIL("no error");
  } catch (const error& bad) {
    CHECK(bad.category() == error_category::invalid_argument);
    CHECK_THAT(bad.what(), Catch::Contains("'='") && Catch::Contains("position 3"));
  }
  CHECK_THROWS_WITH(syclbin::base64::decode("gAAAA"), Catch::Contains("truncated"));
  CHECK_THROWS_AS(syclbin::base64::decode(std::string("gA\0A", 4)), error);
}
