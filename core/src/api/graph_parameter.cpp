// GraphParameter's shared value (graph_parameter.hpp) and the replay's snapshot of it.
#include "plexus/graph_parameter.hpp"

#include <cstring>
#include <mutex>

#include "command_group.hpp"
#include "plexus/error.hpp"

namespace plexus::detail {

class ParameterValue {
 public:
  mutable std::mutex mutex;
  boost::container::small_vector<std::byte, 16> bytes;
};

std::shared_ptr<ParameterValue> make_parameter_value(const void* bytes, std::size_t size) {
  auto value = std::make_shared<ParameterValue>();
  const auto* first = static_cast<const std::byte*>(bytes);
  value->bytes.assign(first, first + size);
  return value;
}

void store_parameter_value(ParameterValue& value, const void* bytes, std::size_t size) {
  std::lock_guard lock(value.mutex);
  if (size != value.bytes.size())
    throw error(error_category::invalid_argument, "GraphParameter::update: the value has " +
                                                      std::to_string(size) + " bytes, the parameter " +
                                                      std::to_string(value.bytes.size()));
  std::memcpy(value.bytes.data(), bytes, size);
}

void load_parameter_value(const ParameterValue& value, void* bytes, std::size_t size) {
  std::lock_guard lock(value.mutex);
  std::memcpy(bytes, value.bytes.data(), std::min(size, value.bytes.size()));
}

void refresh_parameters(ArgumentSlots& slots) {
  for (ArgumentSlot& slot : slots) {
    if (!slot.parameter) continue;
    std::lock_guard lock(slot.parameter->mutex);
    slot.value.assign(slot.parameter->bytes.begin(), slot.parameter->bytes.end());
  }
}

}  // namespace plexus::detail
