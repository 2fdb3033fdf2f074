#include <catch2/catch.hpp>

#include "plexus/error.hpp"
#include "plexus/syclbin/base64.hpp"
#include "plexus/syclbin/property_set.hpp"
#include "syclbin_samples.hpp"

using namespace plexus;
using namespace plexus::test;
using syclbin::PropertySetRegistry;

TEST_CASE("property sets: the text DPC++ writes, parsed and written back unchanged") {
  std::vector<std::byte> target_raw;
  append_le(target_raw, 22 * 8, 8);
  const auto triple = bytes_of("spir64-unknown-unknown");
  target_raw.insert(target_raw.end(), triple.begin(), triple.end());
  const std::string text =
      "[SYCLBIN/ir module metadata]\n"
      "type=1|0\n"
      "target=2|" + syclbin::base64::encode(target_raw) + "\n"
      "[SYCL/kernel names]\n"
      "saxpy=1|1\n";
  const PropertySetRegistry registry = PropertySetRegistry::parse(text);
  REQUIRE(registry.sets().size() == 2);
  CHECK(*registry.find("SYCLBIN/ir module metadata", "type")->as_uint32() == 0);
  const auto* target = registry.find("SYCLBIN/ir module metadata", "target")->as_byte_array();
  REQUIRE(target);
  CHECK(target->as_string() == "spir64-unknown-unknown");
  CHECK(target->bit_size == 22 * 8);
  CHECK(registry.to_text() == text);
}

TEST_CASE("property sets: a registry built in code round-trips through text") {
  PropertySetRegistry registry;
  registry.set("SYCLBIN/global metadata", "state", std::uint32_t{2});
  registry.set("A", "bytes", syclbin::ByteArray::from_bytes(bytes_of(std::string("\0\xff\x10", 3))));
  registry.set("A", "empty", syclbin::ByteArray{});
  registry.set("A", "max", std::uint32_t{4294967295u});
  registry.add_set("empty set");
  const std::string text = registry.to_text();
  CHECK(text.find("empty=2|AAAAAAAAAAA\n") != std::string::npos);
  const PropertySetRegistry back = PropertySetRegistry::parse(text);
  CHECK(back == registry);
  CHECK(back.to_text() == text);
}

TEST_CASE("property sets: CRLF lines, and order does not matter") {
  const auto a = PropertySetRegistry::parse("[x]\r\na=1|1\r\nb=1|2\r\n[y]\r\nc=1|3\r\n");
  const auto b = PropertySetRegistry::parse("[y]\nc=1|3\n[x]\nb=1|2\na=1|1");
  CHECK(a == b);
  CHECK(a != PropertySetRegistry::parse("[y]\nc=1|3\n[x]\nb=1|2\na=1|9"));
  CHECK(PropertySetRegistry::parse("").empty());
  // Whitespace is significant: " a" is another key than "a".
  CHECK(PropertySetRegistry::parse("[x]\n a=1|1\n").find("x", " a"));
  // A repeated set name continues the set, as DPC++ reads it.
  CHECK(PropertySetRegistry::parse("[x]\na=1|1\n[x]\nb=1|2\n").find("x")->properties().size() == 2);
}

TEST_CASE("property sets: malformed text names the line and the problem") {
  const auto fails = [](const std::string& text, const std::string& what) {
    INFO(text);
    try {
      PropertySetRegistry::parse(text);
      FAIL("parsed");
    } catch (const error& bad) {
      CHECK(bad.category() == error_category::invalid_argument);
      CHECK_THAT(bad.what(), Catch::Contains(what));
    }
  };
  fails("a=1|1\n", "line 1: property 'a=1|1' before any [set name] line");
  fails("[x]\nnovalue\n", "line 2: expected key=type|value");
  fails("[x]\na=11\n", "line 2: property 'a' has no type|value");
  fails("[x]\n=1|1\n", "line 2: empty property key");
  fails("[x]\na=1|\n", "line 2: property 'a' has no value");
  fails("[x]\na=3|1\n", "line 2: property 'a' has type '3'");
  fails("[x]\na=1|12a\n", "'12a' is not a decimal 32-bit unsigned integer");
  fails("[x]\na=1|4294967296\n", "is not a decimal 32-bit");
  fails("[x]\na=1|-1\n", "is not a decimal 32-bit");
  fails("[x]\na=2|gAAAAAAAA#ABAAAA\n", "line 2: byte array 'a': invalid base64 character '#'");
  fails("[x]\na=2|gAAA\n", "decodes to 3 bytes");
  fails("[x]\na=2|gBAAAAAAAAABAAAA\n", "declares 96 bits but holds 4 bytes");
  fails("[x]\na=1|1\na=1|2\n", "line 3: property 'a' repeats in set [x]");
  fails("[x\na=1|1\n", "line 1: set name without ']'");
  fails("[x]y\n", "characters after ']'");
}

TEST_CASE("property sets: names the text cannot carry are refused on writing") {
  PropertySetRegistry registry;
  registry.set("x", "a=b", std::uint32_t{1});
  CHECK_THROWS_WITH(registry.to_text(), Catch::Contains("'a=b'"));
  PropertySetRegistry bad_bits;
  syclbin::ByteArray array;
  array.bit_size = 9;
  array.bytes.resize(1);
  bad_bits.set("x", "a", array);
  CHECK_THROWS_WITH(bad_bits.to_text(), Catch::Contains("declares 9 bits but holds 1 bytes"));
}
