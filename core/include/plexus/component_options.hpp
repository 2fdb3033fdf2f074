// ComponentOptions: the table of options the config gives one component
// (`[scheduler.dag]`, `[backends.opencl]`, ...), with typed look-ups whose errors name the
// config file, line and column, the key, the type expected and the type found.
//
// Thread-safety: all members are safe to call concurrently. The object is a cheap,
// shared, immutable view; it records which keys were read so the core can warn about
// options no component used (typos).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/export.hpp"

namespace plexus {

class PLEXUS_API ComponentOptions {
 public:
  class Impl;

  ComponentOptions();  // empty: every look-up returns its fallback
  explicit ComponentOptions(std::shared_ptr<Impl> impl);
  ~ComponentOptions();
  ComponentOptions(const ComponentOptions&);
  ComponentOptions& operator=(const ComponentOptions&);

  // Dotted path of the table, e.g. "scheduler.dag"; empty for an empty set of options.
  std::string table_path() const;
  bool contains(std::string_view key) const;
  std::vector<std::string> keys() const;
  // Keys present in the table that no look-up has read, each as "file:line:col: key".
  std::vector<std::string> unused_keys() const;

  // T is one of: bool, std::int64_t, double, std::string, std::vector<std::string>,
  // std::vector<std::int64_t>.
  // A present key of another type throws plexus::error(config).
  template <class T>
  std::optional<T> find(std::string_view key) const;
  template <class T>
  T get(std::string_view key, T fallback) const {
    auto value = find<T>(key);
    return value ? std::move(*value) : std::move(fallback);
  }
  // An integer option that may not be negative: a negative value is a plexus::error(config)
  // naming where, the key and the value.
  std::int64_t get_non_negative(std::string_view key, std::int64_t fallback) const;
  // A string option that must be one of `choices`: another string is a plexus::error(config)
  // naming where, the key, the choices and the nearest ("did you mean"); absent: `fallback`.
  std::string get_one_of(std::string_view key, const std::vector<std::string>& choices,
                         std::string fallback) const;
  // For a plugin's own checks of a value it read: throws plexus::error(config)
  // "FILE:LINE:COL: option 'scheduler.heft.prior' MESSAGE", where is the option's position
  // in the config (or the override that set it; the table's path when the key is absent).
  [[noreturn]] void error(std::string_view key, std::string_view message) const;
  // An integer option in [min, max] (a documented range, so a huge value cannot overflow
  // what it is converted to): outside it, a plexus::error(config) naming where, the key,
  // the range (with `unit`, e.g. "days") and the value.
  std::int64_t get_in_range(std::string_view key, std::int64_t fallback, std::int64_t min,
                            std::int64_t max, std::string_view unit = "") const;
  // The same for a number option (an integer or a float; NaN is outside every range).
  double get_number_in_range(std::string_view key, double fallback, double min, double max,
                             std::string_view unit = "") const;
  // The string option `key`, else the environment variable (when set and not empty), else
  // `fallback`: for paths a user may give either way (e.g. PLEXUS_LIBCLC_DIR).
  std::string get_or_env(std::string_view key, const char* environment_variable,
                         std::string fallback) const;

 private:
  std::shared_ptr<Impl> impl_;
};

extern template PLEXUS_API std::optional<bool> ComponentOptions::find<bool>(std::string_view) const;
extern template PLEXUS_API std::optional<std::int64_t> ComponentOptions::find<std::int64_t>(
    std::string_view) const;
extern template PLEXUS_API std::optional<double> ComponentOptions::find<double>(
    std::string_view) const;
extern template PLEXUS_API std::optional<std::string> ComponentOptions::find<std::string>(
    std::string_view) const;
extern template PLEXUS_API std::optional<std::vector<std::string>>
ComponentOptions::find<std::vector<std::string>>(std::string_view) const;
extern template PLEXUS_API std::optional<std::vector<std::int64_t>>
ComponentOptions::find<std::vector<std::int64_t>>(std::string_view) const;

}  // namespace plexus
