// Statistics for `plexus ab`: median/min/max of a sample, and the paired ratio of one config
// to the baseline with a plain verdict on whether the difference is within run-to-run noise.
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <vector>

namespace plexus::tool {

struct Spread {
  double median = 0, min = 0, max = 0;
};

// Of a non-empty sample (empty: all zero).
Spread spread_of(std::vector<double> values);

struct Comparison {
  Spread ratio;          // other/base per pair of runs (run i of each, taken in turn)
  bool differs = false;  // every pair agrees (verdict: "faster ..." / "slower ...")
  std::string verdict;   // "faster in every pair ...", "the difference is within ...", ...
};

// Pairs base[i] with other[i] (the runs alternate, so drift hits both). The difference is
// called real only when every pair agrees on its sign and there are at least 3 pairs.
Comparison compare(const std::vector<double>& base, const std::vector<double>& other);

}  // namespace plexus::tool
