// Property sets: the metadata of SYCLBIN files (and of SYCL device images), in the text form
// DPC++ reads and writes (intel/llvm PropertySetIO):
//   [set name]
//   key=1|<decimal u32>
//   key=2|<base64 of (u64 little-endian size in bits, then the bytes)>
// No terminator, no per-set length; lines end in "\n" ("\r\n" is read too); whitespace is
// significant. An empty text is an empty registry.
//
// The model keeps insertion order (so reading and writing a file reproduces its bytes), while
// equality ignores the order of sets and of properties, as readers must.
// Plain values; not thread-safe for concurrent mutation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "plexus/syclbin/export.hpp"

namespace plexus::syclbin {

// A byte-array value: its bytes and its size in bits (8 * bytes.size() for whole bytes; the
// format allows a bit size that is not a multiple of 8, with ceil(bits / 8) bytes).
struct PLEXUS_SYCLBIN_API ByteArray {
  std::vector<std::byte> bytes;
  std::uint64_t bit_size = 0;

  static ByteArray from_string(std::string_view text);
  static ByteArray from_bytes(std::span<const std::byte> bytes);
  std::string_view as_string() const {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
  bool operator==(const ByteArray&) const = default;
};

class PLEXUS_SYCLBIN_API PropertyValue {
 public:
  enum class Type : std::uint32_t { uint32 = 1, byte_array = 2 };  // the text's type tags

  PropertyValue() : value_(std::uint32_t{0}) {}
  PropertyValue(std::uint32_t value) : value_(value) {}          // NOLINT: implicit on purpose
  PropertyValue(ByteArray value) : value_(std::move(value)) {}   // NOLINT
  static PropertyValue string(std::string_view text) { return ByteArray::from_string(text); }

  Type type() const { return value_.index() == 0 ? Type::uint32 : Type::byte_array; }
  const std::uint32_t* as_uint32() const { return std::get_if<std::uint32_t>(&value_); }
  const ByteArray* as_byte_array() const { return std::get_if<ByteArray>(&value_); }
  bool operator==(const PropertyValue&) const = default;

 private:
  std::variant<std::uint32_t, ByteArray> value_;
};

struct Property {
  std::string name;
  PropertyValue value;
  bool operator==(const Property&) const = default;
};

class PLEXUS_SYCLBIN_API PropertySet {
 public:
  PropertySet() = default;
  explicit PropertySet(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::vector<Property>& properties() const { return properties_; }
  bool empty() const { return properties_.empty(); }
  const PropertyValue* find(std::string_view key) const;
  // Adds the property, or replaces the value of the one with this key (keeping its place).
  void set(std::string_view key, PropertyValue value);
  // Equal names and equal properties, in any order.
  bool operator==(const PropertySet& other) const;

 private:
  std::string name_;
  std::vector<Property> properties_;
};

class PLEXUS_SYCLBIN_API PropertySetRegistry {
 public:
  // Parses the text form. Throws plexus::error(invalid_argument) naming the line (1-based),
  // and what is wrong on it: a property before any "[set]" line, a line without '=' or '|',
  // an empty key, an unknown type tag, a value that is not a decimal u32, base64 that does
  // not decode, a byte array whose bit size does not match its bytes, a key that repeats in
  // its set. A set name that repeats continues that set, as DPC++ reads it.
  static PropertySetRegistry parse(std::string_view text);
  // The text form, sets and properties in insertion order, each line ending in '\n'.
  std::string to_text() const;

  const std::vector<PropertySet>& sets() const { return sets_; }
  bool empty() const { return sets_.empty(); }
  const PropertySet* find(std::string_view set_name) const;
  const PropertyValue* find(std::string_view set_name, std::string_view key) const;
  PropertySet& add_set(std::string_view set_name);  // the existing set of that name, or a new one
  void set(std::string_view set_name, std::string_view key, PropertyValue value);
  // Equal sets in any order (an empty set counts as a set).
  bool operator==(const PropertySetRegistry& other) const;

 private:
  std::vector<PropertySet> sets_;
};

}  // namespace plexus::syclbin
