// When a plugin's build fingerprint refuses it (plugin_library.cpp): the libstdc++ ABI must
// match; a sanitizer must match, except that an uninstrumented plugin loads into a
// sanitized core (scripts/sanitize.sh runs the normal build's LLVM plugins that way).
#include <catch2/catch.hpp>

#include "build_fingerprint.hpp"

using plexus::detail::fingerprint_mismatch;

TEST_CASE("a plugin's fingerprint must match the core's ABI and sanitizer") {
  const char* plain = "cxx11abi=1;sanitizer=none;compiler=gcc-12";
  const char* address = "cxx11abi=1;sanitizer=address;compiler=gcc-12";
  CHECK_FALSE(fingerprint_mismatch(plain, plain));
  CHECK_FALSE(fingerprint_mismatch(address, address));
  CHECK_FALSE(fingerprint_mismatch(plain, "cxx11abi=1;sanitizer=none;compiler=clang-15"));

  const auto abi = fingerprint_mismatch(plain, "cxx11abi=0;sanitizer=none;compiler=gcc-12");
  REQUIRE(abi);
  CHECK_THAT(*abi, Catch::Contains("cxx11abi=0") && Catch::Contains("the core has cxx11abi=1"));

  // An instrumented plugin cannot run in a plain core (its sanitizer runtime is missing)...
  const auto instrumented = fingerprint_mismatch(plain, address);
  REQUIRE(instrumented);
  CHECK_THAT(*instrumented, Catch::Contains("sanitizer=address") &&
                                Catch::Contains("the core has sanitizer=none"));
  // ...but a plain plugin runs in a sanitized core, unchecked.
  CHECK_FALSE(fingerprint_mismatch(address, plain));
  // A fingerprint without the field is not "none".
  CHECK(fingerprint_mismatch(address, "cxx11abi=1"));
}
