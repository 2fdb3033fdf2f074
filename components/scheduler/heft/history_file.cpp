#include "history_file.hpp"

#include <boost/json.hpp>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "plexus/error.hpp"

namespace plexus::heft {

namespace json = boost::json;

namespace {

constexpr const char* format_name = "plexus-heft-history";
constexpr std::int64_t format_version = 1;

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
  throw error(error_category::config,
              "heft history file '" + path + "': " + what +
                  "; fix it, or delete it to start again without measurements "
                  "([scheduler.heft] history)");
}

const json::object& object_at(const json::value& value, const std::string& path,
                              const std::string& where) {
  if (!value.is_object()) corrupt(path, where + " must be an object");
  return value.get_object();
}

Measurement measurement_at(const json::value& value, const std::string& path,
                           const std::string& where) {
  const json::object& object = object_at(value, path, where);
  const json::value* mean = object.if_contains("mean");
  const json::value* samples = object.if_contains("samples");
  if (!mean || !mean->is_number()) corrupt(path, where + ".mean must be a number");
  if (!samples || !(samples->is_int64() || samples->is_uint64())) {
    corrupt(path, where + ".samples must be an integer");
  }
  Measurement result;
  result.mean = mean->to_number<double>();
  if (!std::isfinite(result.mean) || result.mean < 0.0) {
    corrupt(path, where + ".mean must be a finite number >= 0");
  }
  if (samples->is_int64() && samples->get_int64() < 1) {
    corrupt(path, where + ".samples must be at least 1");
  }
  result.samples = samples->to_number<std::uint64_t>();
  return result;
}

json::object to_json(const Measurement& measurement) {
  return json::object{{"mean", measurement.mean}, {"samples", measurement.samples}};
}

}  // namespace

CostTable load_history(const std::string& path) {
  std::error_code exists_error;
  if (!std::filesystem::exists(path, exists_error)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw error(error_category::io,
                "heft history file '" + path + "' cannot be read: " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  json::value root;
  try {
    root = json::parse(text.str());
  } catch (const std::exception& failure) {
    corrupt(path, std::string("not valid JSON (") + failure.what() + ")");
  }
  const json::object& top = object_at(root, path, "the top level");
  const json::value* format = top.if_contains("format");
  if (!format || !format->is_string() || format->get_string() != format_name) {
    corrupt(path, std::string("\"format\" must be \"") + format_name + "\"");
  }
  const json::value* version = top.if_contains("version");
  if (!version || !version->is_int64() || version->get_int64() != format_version) {
    corrupt(path, "\"version\" must be " + std::to_string(format_version));
  }
  const json::value* devices = top.if_contains("devices");
  if (!devices) corrupt(path, "\"devices\" is missing");
  CostTable table;
  for (const auto& [device, value] : object_at(*devices, path, "\"devices\"")) {
    const std::string where = "devices[\"" + std::string(device) + "\"]";
    const json::object& entry = object_at(value, path, where);
    DeviceCosts& costs = table[std::string(device)];
    if (const json::value* bandwidth = entry.if_contains("bandwidth")) {
      costs.bandwidth = measurement_at(*bandwidth, path, where + ".bandwidth");
    }
    if (const json::value* sources = entry.if_contains("bandwidth_from")) {
      for (const auto& [from, measured] : object_at(*sources, path, where + ".bandwidth_from")) {
        costs.bandwidth_from[std::string(from)] = measurement_at(
            measured, path, where + ".bandwidth_from[\"" + std::string(from) + "\"]");
      }
    }
    if (const json::value* kernels = entry.if_contains("kernels")) {
      for (const auto& [kernel, measured] : object_at(*kernels, path, where + ".kernels")) {
        costs.kernels[std::string(kernel)] =
            measurement_at(measured, path, where + ".kernels[\"" + std::string(kernel) + "\"]");
      }
    }
  }
  return table;
}

void save_history(const std::string& path, const CostTable& table) {
  json::object devices;
  for (const auto& [device, costs] : table) {
    json::object entry;
    if (costs.bandwidth.samples) entry["bandwidth"] = to_json(costs.bandwidth);
    json::object sources;
    for (const auto& [from, measurement] : costs.bandwidth_from) {
      if (measurement.samples) sources[from] = to_json(measurement);
    }
    if (!sources.empty()) entry["bandwidth_from"] = std::move(sources);
    json::object kernels;
    for (const auto& [kernel, measurement] : costs.kernels) {
      if (measurement.samples) kernels[kernel] = to_json(measurement);
    }
    entry["kernels"] = std::move(kernels);
    devices[device] = std::move(entry);
  }
  const json::object root{
      {"format", format_name}, {"version", format_version}, {"devices", std::move(devices)}};
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw error(error_category::io, "heft history file '" + temporary +
                                          "' cannot be written: " + std::strerror(errno));
    }
    out << json::serialize(root) << "\n";
    out.flush();
    if (!out) {
      throw error(error_category::io,
                  "heft history file '" + temporary + "': writing failed: " + std::strerror(errno));
    }
  }
  std::error_code rename_error;
  std::filesystem::rename(temporary, path, rename_error);
  if (rename_error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw error(error_category::io,
                "heft history file '" + path + "' cannot be replaced: " + rename_error.message());
  }
}

}  // namespace plexus::heft
