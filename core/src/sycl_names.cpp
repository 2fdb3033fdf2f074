#include "plexus/sycl_names.hpp"

namespace plexus {

std::string registered_kernel_symbol(std::string_view name) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string symbol = "__plexus_registered_";
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9')) {
      symbol += c;
    } else {
      symbol += '_';
      symbol += hex[byte >> 4];
      symbol += hex[byte & 15];
    }
  }
  return symbol;
}

}  // namespace plexus
