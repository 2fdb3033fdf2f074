#include "message_damage.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "messages.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::mpi {

namespace {

constexpr const char* modes[] = {"flip", "truncate", "type",  "cut",  "pad",
                                 "ahead", "dup",      "short", "older", "late"};

[[noreturn]] void bad_item(const std::string& item, const std::string& why) {
  throw error(error_category::invalid_argument,
              "PLEXUS_MPI_TEST_CORRUPT: item '" + item + "': " + why);
}

std::uint32_t type_named(const std::string& name, const std::string& item) {
  for (std::uint32_t type = 1; type < 64; ++type)
    if (to_string(static_cast<MessageType>(type)) == name) return type;
  bad_item(item, "no message type '" + name + "'");
}

std::uint64_t number(const std::string& text, const std::string& item) {
  char* end = nullptr;
  const std::uint64_t value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end || value == 0) bad_item(item, "'" + text + "' is not a count from 1");
  return value;
}

int rank_in(const std::string& text, const std::string& item) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9)
    bad_item(item, "'" + text + "' is not a rank");
  return std::stoi(text);
}

// Header fields after a change of the payload: its size, then the checksum.
void reseal(std::vector<std::byte>& message) {
  const std::uint64_t payload = message.size() - header_bytes;
  std::memcpy(message.data() + 24, &payload, 8);
  const std::uint32_t checksum = message_checksum(message);
  std::memcpy(message.data() + 12, &checksum, 4);
}

}  // namespace

MessageDamage::MessageDamage(const std::string& spec, int rank) {
  for (std::size_t start = 0; start < spec.size();) {
    const std::size_t end = std::min(spec.find(',', start), spec.size());
    const std::string whole = spec.substr(start, end - start);
    start = end + 1;
    std::string item = whole;
    if (const auto at = item.find('@'); at != std::string::npos) {
      if (rank_in(item.substr(at + 1), whole) != rank) continue;
      item.resize(at);
    }
    const auto colon = item.find(':');
    Item parsed;
    parsed.mode = colon == std::string::npos ? "flip" : item.substr(colon + 1);
    if (std::find(std::begin(modes), std::end(modes), parsed.mode) == std::end(modes))
      bad_item(whole, "no mode '" + parsed.mode + "'");
    std::string which = item.substr(0, colon);
    if (const auto to = which.find('>'); to != std::string::npos) {
      parsed.destination = rank_in(which.substr(to + 1), whole);
      which.resize(to);
    }
    if (const auto dot = which.find('.'); dot != std::string::npos) {
      parsed.type = type_named(which.substr(0, dot), whole);
      which = which.substr(dot + 1);
    }
    parsed.at = number(which, whole);
    items_.push_back(std::move(parsed));
  }
}

std::optional<std::vector<std::byte>> MessageDamage::apply(std::vector<std::byte>& message,
                                                           int destination) {
  std::uint32_t type = 0;
  std::memcpy(&type, message.data() + 8, 4);
  // Counted by type (0: any) and destination (-1: any).
  for (const std::uint32_t counted_type : {0u, type})
    for (const int counted_destination : {-1, destination})
      ++sent_[{counted_type, counted_destination}];
  const auto item = std::find_if(items_.begin(), items_.end(), [&](const Item& each) {
    // Only items whose count this message just raised: each fires once.
    return (each.type == 0 || each.type == type) &&
           (each.destination < 0 || each.destination == destination) &&
           sent_[{each.type, each.destination}] == each.at;
  });
  if (item == items_.end()) return std::nullopt;
  const std::uint64_t nth = sent_[{0, -1}], nth_of_type = sent_[{type, -1}];
  logger().warn("mpi test hook: damaging control message {} ('{}' {}): {}", nth,
                to_string(static_cast<MessageType>(type)), nth_of_type, item->mode);
  const std::string& mode = item->mode;
  if (mode == "truncate") {
    message.resize(message.size() / 2);
  } else if (mode == "type") {
    const std::uint32_t unknown = 999;
    std::memcpy(message.data() + 8, &unknown, 4);
    reseal(message);
  } else if (mode == "cut" && message.size() > header_bytes) {
    message.pop_back();
    reseal(message);
  } else if (mode == "pad") {
    message.push_back(std::byte{0});
    reseal(message);
  } else if (mode == "ahead" && message.size() >= header_bytes + 16) {
    std::uint64_t word = 0;
    std::memcpy(&word, message.data() + header_bytes + 8, 8);
    word += 1000;
    std::memcpy(message.data() + header_bytes + 8, &word, 8);
    reseal(message);
  } else if (mode == "dup") {
    return message;
  } else if (mode == "older") {
    std::uint32_t protocol = 0;
    std::memcpy(&protocol, message.data() + 4, 4);
    --protocol;
    std::memcpy(message.data() + 4, &protocol, 4);
    reseal(message);
  } else if (mode == "short") {
    short_ = true;  // the message itself stays whole; its announcement overstates it
  } else if (mode == "late") {
    std::this_thread::sleep_for(late_by);  // the message itself stays whole
  } else {
    message.back() ^= std::byte{0x5a};
  }
  return std::nullopt;
}

std::size_t control_receive_bytes(const char* hook, int rank) {
  if (!hook || !*hook) return control_capacity;
  const std::string spec = hook;
  const auto digits = [](const std::string& text) {
    return !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
  };
  const auto at = spec.find('@');
  const std::string bytes = spec.substr(0, at), owner = at == std::string::npos ? "" : spec.substr(at + 1);
  if (!digits(bytes) || !digits(owner))
    throw error(error_category::invalid_argument,
                "PLEXUS_MPI_TEST_RECEIVE_BYTES: '" + spec + "' is not BYTES@RANK");
  if (std::stoi(owner) != rank) return control_capacity;
  const std::size_t value = std::stoul(bytes);
  if (value < header_bytes || value > control_capacity)
    throw error(error_category::invalid_argument,
                "PLEXUS_MPI_TEST_RECEIVE_BYTES: '" + spec + "': the receive must hold a header (" +
                    std::to_string(header_bytes) + " bytes) and at most " +
                    std::to_string(control_capacity) + " bytes");
  return value;
}

}  // namespace plexus::mpi
