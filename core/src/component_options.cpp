#include "plexus/component_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "closest_name.hpp"
#include "component_options_impl.hpp"
#include "plexus/error.hpp"
#include "toml_location.hpp"

namespace plexus {

ComponentOptions::ComponentOptions() = default;
ComponentOptions::ComponentOptions(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
ComponentOptions::~ComponentOptions() = default;
ComponentOptions::ComponentOptions(const ComponentOptions&) = default;
ComponentOptions& ComponentOptions::operator=(const ComponentOptions&) = default;

std::string ComponentOptions::table_path() const { return impl_ ? impl_->table_path : ""; }

bool ComponentOptions::contains(std::string_view key) const {
  return impl_ && impl_->table.contains(key);
}

std::vector<std::string> ComponentOptions::keys() const {
  std::vector<std::string> result;
  if (!impl_) return result;
  for (const auto& [key, node] : impl_->table) result.emplace_back(key.str());
  return result;
}

std::int64_t ComponentOptions::get_non_negative(std::string_view key, std::int64_t fallback) const {
  return get_in_range(key, fallback, 0, std::numeric_limits<std::int64_t>::max());
}

namespace {

template <class T>
std::string shown(T number) {
  std::ostringstream text;
  text << number;
  return text.str();
}

// The range in words: "between 0 and 1024 days", "0 or positive", "at least 1".
template <class T>
std::string range_text(T min, T max, std::string_view unit) {
  const std::string units = unit.empty() ? "" : " " + std::string(unit);
  if (max == std::numeric_limits<T>::max())
    return min == 0 ? "0 or positive" : "at least " + shown(min) + units;
  return "between " + shown(min) + " and " + shown(max) + units;
}

}  // namespace

std::int64_t ComponentOptions::get_in_range(std::string_view key, std::int64_t fallback,
                                            std::int64_t min, std::int64_t max,
                                            std::string_view unit) const {
  const std::int64_t value = get<std::int64_t>(key, fallback);
  if (value >= min && value <= max) return value;
  error(key, "must be " + range_text(min, max, unit) + ", found " + shown(value));
}

double ComponentOptions::get_number_in_range(std::string_view key, double fallback, double min,
                                             double max, std::string_view unit) const {
  const double value = get<double>(key, fallback);
  if (value >= min && value <= max) return value;  // false for NaN
  error(key, "must be " + range_text(min, max, unit) + ", found " + shown(value));
}

std::string ComponentOptions::get_one_of(std::string_view key,
                                         const std::vector<std::string>& choices,
                                         std::string fallback) const {
  auto value = find<std::string>(key);
  if (!value) return fallback;
  if (std::find(choices.begin(), choices.end(), *value) != choices.end()) return *value;
  std::string listed;
  for (const auto& choice : choices) listed += (listed.empty() ? "\"" : ", \"") + choice + "\"";
  error(key, "must be one of " + listed + ", found \"" + *value + "\"" +
                 detail::did_you_mean(*value, choices, "\""));
}

void ComponentOptions::error(std::string_view key, std::string_view message) const {
  const std::string path = table_path() + "." + std::string(key);
  const toml::node* node = impl_ ? impl_->table.get(key) : nullptr;
  const std::string where = node ? impl_->location(key, *node) + ": " : "";
  throw plexus::error(error_category::config,
                      where + "option '" + path + "' " + std::string(message));
}

std::string ComponentOptions::get_or_env(std::string_view key, const char* environment_variable,
                                         std::string fallback) const {
  if (auto value = find<std::string>(key)) return *value;
  if (const char* value = std::getenv(environment_variable); value && *value) return value;
  return fallback;
}

std::vector<std::string> ComponentOptions::unused_keys() const {
  std::vector<std::string> result;
  if (!impl_) return result;
  for (const auto& [key, node] : impl_->table) {
    if (!impl_->was_read(key.str())) {
      result.push_back(impl_->location(key.str(), node) + ": " + impl_->table_path + "." +
                       std::string(key.str()));
    }
  }
  return result;
}

namespace {

[[noreturn]] void wrong_type(const ComponentOptions::Impl& impl, std::string_view key,
                             const toml::node& node, std::string_view expected) {
  throw error(error_category::config,
              impl.location(key, node) + ": option '" + impl.table_path +
                  "." + std::string(key) + "' must be " + std::string(expected) + ", found " +
                  std::string(detail::node_type_name(node.type())) + " " +
                  detail::node_value_text(node));
}

template <class T>
T convert(const ComponentOptions::Impl& impl, std::string_view key, const toml::node& node);

template <>
bool convert<bool>(const ComponentOptions::Impl& impl, std::string_view key,
                   const toml::node& node) {
  if (auto value = node.value_exact<bool>()) return *value;
  wrong_type(impl, key, node, "a boolean");
}

template <>
std::int64_t convert<std::int64_t>(const ComponentOptions::Impl& impl, std::string_view key,
                                   const toml::node& node) {
  if (auto value = node.value_exact<std::int64_t>()) return *value;
  wrong_type(impl, key, node, "an integer");
}

template <>
double convert<double>(const ComponentOptions::Impl& impl, std::string_view key,
                       const toml::node& node) {
  if (node.is_floating_point() || node.is_integer()) return *node.value<double>();
  wrong_type(impl, key, node, "a number");
}

template <>
std::string convert<std::string>(const ComponentOptions::Impl& impl, std::string_view key,
                                 const toml::node& node) {
  if (auto value = node.value_exact<std::string>()) return *value;
  wrong_type(impl, key, node, "a string");
}

template <>
std::vector<std::string> convert<std::vector<std::string>>(const ComponentOptions::Impl& impl,
                                                           std::string_view key,
                                                           const toml::node& node) {
  const toml::array* array = node.as_array();
  if (!array) wrong_type(impl, key, node, "an array of strings");
  std::vector<std::string> result;
  for (const auto& element : *array) {
    auto value = element.value_exact<std::string>();
    if (!value) wrong_type(impl, key, element, "an array of strings");
    result.push_back(*value);
  }
  return result;
}

template <>
std::vector<std::int64_t> convert<std::vector<std::int64_t>>(const ComponentOptions::Impl& impl,
                                                             std::string_view key,
                                                             const toml::node& node) {
  const toml::array* array = node.as_array();
  if (!array) wrong_type(impl, key, node, "an array of integers");
  std::vector<std::int64_t> result;
  for (const auto& element : *array) {
    auto value = element.value_exact<std::int64_t>();
    if (!value) wrong_type(impl, key, element, "an array of integers");
    result.push_back(*value);
  }
  return result;
}

}  // namespace

template <class T>
std::optional<T> ComponentOptions::find(std::string_view key) const {
  if (!impl_) return std::nullopt;
  impl_->mark_read(key);
  const toml::node* node = impl_->table.get(key);
  if (!node) return std::nullopt;
  return convert<T>(*impl_, key, *node);
}

template std::optional<bool> ComponentOptions::find<bool>(std::string_view) const;
template std::optional<std::int64_t> ComponentOptions::find<std::int64_t>(std::string_view) const;
template std::optional<double> ComponentOptions::find<double>(std::string_view) const;
template std::optional<std::string> ComponentOptions::find<std::string>(std::string_view) const;
template std::optional<std::vector<std::string>>
ComponentOptions::find<std::vector<std::string>>(std::string_view) const;
template std::optional<std::vector<std::int64_t>>
ComponentOptions::find<std::vector<std::int64_t>>(std::string_view) const;

}  // namespace plexus
