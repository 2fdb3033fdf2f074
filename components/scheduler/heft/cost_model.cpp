#include "cost_model.hpp"

#include <algorithm>
#include <bit>

namespace plexus::heft {

namespace {

constexpr std::uint64_t max_weight = 32;

void add_sample(Measurement& measurement, double value) {
  ++measurement.samples;
  const double weight = static_cast<double>(std::min(measurement.samples, max_weight));
  measurement.mean += (value - measurement.mean) / weight;
}

}  // namespace

std::string kernel_key(const std::string& task_name, std::size_t work_items) {
  return task_name + " [" + std::to_string(work_items ? std::bit_floor(work_items) : 0) + "]";
}

CostModel::CostModel(double default_bandwidth) : default_bandwidth_(default_bandwidth) {}

Measurement CostModel::execution(const std::string& kernel, const std::string& device) const {
  std::lock_guard lock(mutex_);
  const auto costs = table_.find(device);
  if (costs == table_.end()) return {};
  const auto found = costs->second.kernels.find(kernel);
  return found == costs->second.kernels.end() ? Measurement{} : found->second;
}

std::optional<double> CostModel::execution_seconds(const std::string& kernel,
                                                   const std::string& device) const {
  const Measurement measured = execution(kernel, device);
  if (measured.samples == 0) return std::nullopt;
  return measured.mean;
}

double CostModel::bandwidth(const std::string& device) const {
  std::lock_guard lock(mutex_);
  const auto costs = table_.find(device);
  if (costs == table_.end() || costs->second.bandwidth.samples == 0) return default_bandwidth_;
  return costs->second.bandwidth.mean;
}

double CostModel::bandwidth(const std::string& from, const std::string& device) const {
  {
    std::lock_guard lock(mutex_);
    const auto costs = table_.find(device);
    if (costs != table_.end()) {
      const auto pair = costs->second.bandwidth_from.find(from);
      if (pair != costs->second.bandwidth_from.end() && pair->second.samples > 0)
        return pair->second.mean;
    }
  }
  return bandwidth(device);
}

void CostModel::record_execution(const std::string& kernel, const std::string& device,
                                 double seconds) {
  std::lock_guard lock(mutex_);
  Measurement& measurement = table_[device].kernels[kernel];
  seconds = std::max(seconds, 0.0);
  if (measurement.samples == 1) {  // the provisional first run gives way to the second
    measurement = Measurement{seconds, 2};
    return;
  }
  add_sample(measurement, seconds);
}

void CostModel::record_transfer(const std::string& device, std::size_t bytes, double seconds) {
  if (bytes < min_bandwidth_sample_bytes || seconds <= 0.0) return;
  std::lock_guard lock(mutex_);
  add_sample(table_[device].bandwidth, static_cast<double>(bytes) / seconds);
}

void CostModel::record_transfer(const std::string& from, const std::string& device,
                                std::size_t bytes, double seconds) {
  if (bytes < min_bandwidth_sample_bytes || seconds <= 0.0) return;
  std::lock_guard lock(mutex_);
  add_sample(table_[device].bandwidth_from[from], static_cast<double>(bytes) / seconds);
}

CostTable CostModel::snapshot() const {
  std::lock_guard lock(mutex_);
  return table_;
}

void CostModel::merge(const CostTable& table) {
  std::lock_guard lock(mutex_);
  for (const auto& [device, costs] : table) {
    DeviceCosts& mine = table_[device];
    if (costs.bandwidth.samples > mine.bandwidth.samples) mine.bandwidth = costs.bandwidth;
    for (const auto& [from, measurement] : costs.bandwidth_from) {
      Measurement& entry = mine.bandwidth_from[from];
      if (measurement.samples > entry.samples) entry = measurement;
    }
    for (const auto& [kernel, measurement] : costs.kernels) {
      Measurement& entry = mine.kernels[kernel];
      if (measurement.samples > entry.samples) entry = measurement;
    }
  }
}

}  // namespace plexus::heft
