#include "ab_stats.hpp"

#include <algorithm>
#include <cstdio>

namespace plexus::tool {

Spread spread_of(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {median, values.front(), values.back()};
}

Comparison compare(const std::vector<double>& base, const std::vector<double>& other) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < std::min(base.size(), other.size()); ++i) {
    if (base[i] > 0) ratios.push_back(other[i] / base[i]);
  }
  Comparison result{spread_of(ratios), {}};
  if (ratios.size() < 3) {
    result.verdict =
        "too few runs to tell a difference from run-to-run noise (use --runs 3 or more)";
  } else if (result.ratio.max < 1) {
    char text[96];
    std::snprintf(text, sizeof text, "faster in every pair (%.0f%% less makespan, median)",
                  (1 - result.ratio.median) * 100);
    result.verdict = text;
    result.differs = true;
  } else if (result.ratio.min > 1) {
    char text[96];
    std::snprintf(text, sizeof text, "slower in every pair (%.0f%% more makespan, median)",
                  (result.ratio.median - 1) * 100);
    result.verdict = text;
    result.differs = true;
  } else {
    result.verdict =
        "the difference is within run-to-run noise (the pairs disagree on which is faster)";
  }
  return result;
}

}  // namespace plexus::tool
