#include "plexus/byte_size.hpp"

#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace plexus {

namespace {

std::string upper(std::string_view text) {
  std::string result;
  for (char c : text) result += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

std::optional<std::uint64_t> scale_of(std::string_view suffix) {
  static const std::array<std::pair<char, std::uint64_t>, 4> units = {
      {{'K', 1ull << 10}, {'M', 1ull << 20}, {'G', 1ull << 30}, {'T', 1ull << 40}}};
  const std::string text = upper(suffix);
  if (text.empty() || text == "B") return 1;
  for (auto [letter, scale] : units) {
    const std::string one(1, letter);
    if (text == one || text == one + "B" || text == one + "IB") return scale;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::size_t at = 0;
  std::uint64_t whole = 0;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
    const std::uint64_t digit = static_cast<std::uint64_t>(text[at] - '0');
    if (whole > (UINT64_MAX - digit) / 10) return std::nullopt;
    whole = whole * 10 + digit;
    ++at;
  }
  if (at == 0) return std::nullopt;
  // Up to 18 fraction digits, as numerator / denominator (exact, no floating point).
  std::uint64_t numerator = 0, denominator = 1;
  if (at < text.size() && text[at] == '.') {
    const std::size_t first = ++at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      if (at - first < 18) {
        numerator = numerator * 10 + static_cast<std::uint64_t>(text[at] - '0');
        denominator *= 10;
      }
      ++at;
    }
    if (at == first) return std::nullopt;  // "1." is not a size
  }
  if (at < text.size() && text[at] == ' ') ++at;
  const auto scale = scale_of(text.substr(at));
  if (!scale || (numerator != 0 && *scale == 1)) return std::nullopt;  // no fraction of a byte
  if (whole > UINT64_MAX / *scale) return std::nullopt;
  const std::uint64_t fraction =
      static_cast<std::uint64_t>(static_cast<unsigned __int128>(numerator) * *scale / denominator);
  if (whole * *scale > UINT64_MAX - fraction) return std::nullopt;
  return whole * *scale + fraction;
}

}  // namespace plexus
