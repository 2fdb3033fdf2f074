// KeyHasher: BLAKE3 (LLVM Support) over length-prefixed fields, so that no two field lists
// hash the same bytes; hex() gives the 64-hex-digit key. Used for every cache key of
// compiler/clang. Thread-safety: a value; one hasher per key.
#pragma once

#include <llvm/Support/BLAKE3.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace plexus::clang_compiler {

class KeyHasher {
 public:
  KeyHasher& add(std::string_view field) {
    const std::uint64_t size = field.size();
    std::uint8_t prefix[8];
    for (int i = 0; i < 8; ++i) prefix[i] = static_cast<std::uint8_t>(size >> (8 * i));
    hasher_.update(llvm::ArrayRef<std::uint8_t>(prefix, 8));
    hasher_.update(llvm::StringRef(field.data(), field.size()));
    return *this;
  }
  KeyHasher& add(std::uint64_t value) { return add(std::to_string(value)); }
  std::string hex() {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (std::uint8_t byte : hasher_.final()) {
      out += digits[byte >> 4];
      out += digits[byte & 15];
    }
    return out;
  }

 private:
  llvm::BLAKE3 hasher_;
};

}  // namespace plexus::clang_compiler
