#include "plexus/syclbin/property_set.hpp"

#include <algorithm>
#include <charconv>

#include "byte_io.hpp"
#include "plexus/error.hpp"
#include "plexus/syclbin/base64.hpp"

namespace plexus::syclbin {

namespace {

[[noreturn]] void fail(std::size_t line, const std::string& what) {
  throw error(error_category::invalid_argument,
              "property sets, line " + std::to_string(line) + ": " + what);
}

// A line quoted for a message: at most 60 characters, control bytes escaped.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < 60; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
    }
  }
  return out + (text.size() > 60 ? "...'" : "'");
}

std::optional<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > max) return std::nullopt;
  return value;
}

PropertyValue parse_byte_array(std::size_t line, std::string_view key, std::string_view text) {
  std::vector<std::byte> raw;
  try {
    raw = base64::decode(text);
  } catch (const error& bad) {
    fail(line, "byte array '" + std::string(key) + "': " + bad.what());
  }
  if (raw.size() < 8) {
    fail(line, "byte array '" + std::string(key) + "' decodes to " + std::to_string(raw.size()) +
                   " bytes; it needs at least the 8-byte bit size");
  }
  const std::uint64_t bits = detail::load_u64(raw.data());
  const std::uint64_t byte_count = bits / 8 + (bits % 8 != 0);
  if (byte_count != raw.size() - 8) {
    fail(line, "byte array '" + std::string(key) + "' declares " + std::to_string(bits) +
                   " bits but holds " + std::to_string(raw.size() - 8) + " bytes");
  }
  ByteArray value;
  value.bit_size = bits;
  value.bytes.assign(raw.begin() + 8, raw.end());
  return value;
}

}  // namespace

ByteArray ByteArray::from_string(std::string_view text) {
  return from_bytes({reinterpret_cast<const std::byte*>(text.data()), text.size()});
}

ByteArray ByteArray::from_bytes(std::span<const std::byte> bytes) {
  ByteArray value;
  value.bytes.assign(bytes.begin(), bytes.end());
  value.bit_size = std::uint64_t(bytes.size()) * 8;
  return value;
}

const PropertyValue* PropertySet::find(std::string_view key) const {
  for (const auto& property : properties_) {
    if (property.name == key) return &property.value;
  }
  return nullptr;
}

void PropertySet::set(std::string_view key, PropertyValue value) {
  for (auto& property : properties_) {
    if (property.name == key) {
      property.value = std::move(value);
      return;
    }
  }
  properties_.push_back({std::string(key), std::move(value)});
}

bool PropertySet::operator==(const PropertySet& other) const {
  if (name_ != other.name_ || properties_.size() != other.properties_.size()) return false;
  return std::all_of(properties_.begin(), properties_.end(), [&](const Property& property) {
    const PropertyValue* theirs = other.find(property.name);
    return theirs && *theirs == property.value;
  });
}

const PropertySet* PropertySetRegistry::find(std::string_view set_name) const {
  for (const auto& set : sets_) {
    if (set.name() == set_name) return &set;
  }
  return nullptr;
}

const PropertyValue* PropertySetRegistry::find(std::string_view set_name,
                                               std::string_view key) const {
  const PropertySet* set = find(set_name);
  return set ? set->find(key) : nullptr;
}

PropertySet& PropertySetRegistry::add_set(std::string_view set_name) {
  for (auto& set : sets_) {
    if (set.name() == set_name) return set;
  }
  return sets_.emplace_back(std::string(set_name));
}

void PropertySetRegistry::set(std::string_view set_name, std::string_view key,
                              PropertyValue value) {
  add_set(set_name).set(key, std::move(value));
}

bool PropertySetRegistry::operator==(const PropertySetRegistry& other) const {
  if (sets_.size() != other.sets_.size()) return false;
  return std::all_of(sets_.begin(), sets_.end(), [&](const PropertySet& set) {
    const PropertySet* theirs = other.find(set.name());
    return theirs && *theirs == set;
  });
}

PropertySetRegistry PropertySetRegistry::parse(std::string_view text) {
  PropertySetRegistry registry;
  PropertySet* current = nullptr;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    ++line_number;
    std::size_t end = text.find('\n', start);
    std::size_t next = end == std::string_view::npos ? text.size() : end + 1;
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r' && end < text.size()) line.remove_suffix(1);
    start = next;
    if (line.empty()) continue;  // blank lines carry nothing (DPC++ skips them too)

    if (line.front() == '[') {
      const std::size_t close = line.rfind(']');
      if (close == std::string_view::npos) {
        fail(line_number, "set name without ']': " + quoted(line));
      }
      if (close + 1 != line.size()) {
        fail(line_number, "characters after ']' in the set name line " + quoted(line));
      }
      current = &registry.add_set(line.substr(1, close - 1));
      continue;
    }
    if (!current) {
      fail(line_number, "property " + quoted(line) + " before any [set name] line");
    }
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) {
      fail(line_number, "expected key=type|value, got " + quoted(line));
    }
    const std::string_view key = line.substr(0, equals);
    const std::string_view rest = line.substr(equals + 1);
    if (key.empty()) fail(line_number, "empty property key in " + quoted(line));
    const std::size_t bar = rest.find('|');
    if (bar == std::string_view::npos) {
      fail(line_number, "property '" + std::string(key) + "' has no type|value: " + quoted(line));
    }
    const std::string_view type_text = rest.substr(0, bar);
    const std::string_view value_text = rest.substr(bar + 1);
    if (value_text.empty()) fail(line_number, "property '" + std::string(key) + "' has no value");
    if (current->find(key)) {
      fail(line_number, "property '" + std::string(key) + "' repeats in set [" +
                            current->name() + "]");
    }
    const auto type = parse_decimal(type_text, 0xffffffffu);
    if (type == 1u) {
      const auto value = parse_decimal(value_text, 0xffffffffu);
      if (!value) {
        fail(line_number, "property '" + std::string(key) + "': " + quoted(value_text) +
                              " is not a decimal 32-bit unsigned integer");
      }
      current->set(key, std::uint32_t(*value));
    } else if (type == 2u) {
      current->set(key, parse_byte_array(line_number, key, value_text));
    } else {
      fail(line_number, "property '" + std::string(key) + "' has type " + quoted(type_text) +
                            " (expected 1: 32-bit integer, or 2: byte array)");
    }
  }
  return registry;
}

// Names the text form cannot carry back: a reader would split or misread the line.
static void check_writable(const PropertySet& set, const Property* property) {
  const auto bad = [](std::string_view text, std::string_view forbidden) {
    return text.find_first_of(forbidden) != std::string_view::npos;
  };
  if (!property) {
    if (bad(set.name(), std::string_view("\n\r", 2))) {
      throw error(error_category::invalid_argument,
                  "property set name " + quoted(set.name()) + " contains a line break");
    }
    return;
  }
  const std::string& key = property->name;
  if (key.empty() || key.front() == '[' || bad(key, "=\n\r")) {
    throw error(error_category::invalid_argument,
                "property key " + quoted(key) + " in set [" + set.name() +
                    "] cannot be written (empty, starts with '[', or contains '=' or a line "
                    "break)");
  }
  if (const auto* array = property->value.as_byte_array()) {
    if (array->bit_size / 8 + (array->bit_size % 8 != 0) != array->bytes.size()) {
      throw error(error_category::invalid_argument,
                  "byte array '" + key + "' in set [" + set.name() + "] declares " +
                      std::to_string(array->bit_size) + " bits but holds " +
                      std::to_string(array->bytes.size()) + " bytes");
    }
  }
}

std::string PropertySetRegistry::to_text() const {
  std::string text;
  for (const auto& set : sets_) {
    check_writable(set, nullptr);
    text += '[' + set.name() + "]\n";
    for (const auto& property : set.properties()) {
      check_writable(set, &property);
      text += property.name + '=';
      if (const auto* number = property.value.as_uint32()) {
        text += "1|" + std::to_string(*number);
      } else {
        const ByteArray& array = *property.value.as_byte_array();
        std::vector<std::byte> raw;
        raw.reserve(8 + array.bytes.size());
        detail::store_u64(raw, array.bit_size);
        raw.insert(raw.end(), array.bytes.begin(), array.bytes.end());
        text += "2|" + base64::encode(raw);
      }
      text += '\n';
    }
  }
  return text;
}

}  // namespace plexus::syclbin
