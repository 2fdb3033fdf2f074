#include "matrix.hpp"

#include <algorithm>
#include <cmath>

namespace cholesky {

std::vector<double> spd_matrix(std::size_t n) {
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t lo = std::min(i, j), hi = std::max(i, j);
      a[i * n + j] = i == j ? double(n) : double((lo * 7 + hi * 13) % 17) / 17.0;
    }
  return a;
}

double factor_error(const std::vector<double>& l, const std::vector<double>& a, std::size_t n,
                    std::size_t rows) {
  if (rows == 0 || rows >= n) rows = n;
  double worst = 0.0, scale = 0.0;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t i = rows == 1 ? n - 1 : r * (n - 1) / (rows - 1);
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k <= j; ++k) sum += l[i * n + k] * l[j * n + k];
      if (std::isnan(sum)) return sum;  // std::max would skip it: a factor with NaNs is wrong
      worst = std::max(worst, std::fabs(sum - a[i * n + j]));
      scale = std::max(scale, std::fabs(a[i * n + j]));
    }
  }
  return worst / scale;
}

}  // namespace cholesky
