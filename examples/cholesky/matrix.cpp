#include "matrix.hpp"

#include <algorithm>
#include <cmath>

namespace cholesky {

template <class T>
std::vector<T> spd_matrix(std::size_t n) {
  std::vector<T> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t lo = std::min(i, j), hi = std::max(i, j);
      a[i * n + j] = T(i == j ? double(n) : double((lo * 7 + hi * 13) % 17) / 17.0);
    }
  return a;
}

template <class T>
double factor_error(const std::vector<T>& l, const std::vector<T>& a, std::size_t n,
                    std::size_t rows) {
  if (rows == 0 || rows >= n) rows = n;
  double worst = 0.0, scale = 0.0;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t i = rows == 1 ? n - 1 : r * (n - 1) / (rows - 1);
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k <= j; ++k) sum += double(l[i * n + k]) * double(l[j * n + k]);
      if (std::isnan(sum)) return sum;  // std::max would skip it: a factor with NaNs is wrong
      worst = std::max(worst, std::fabs(sum - double(a[i * n + j])));
      scale = std::max(scale, std::fabs(double(a[i * n + j])));
    }
  }
  return worst / scale;
}

template std::vector<float> spd_matrix<float>(std::size_t);
template std::vector<double> spd_matrix<double>(std::size_t);
template double factor_error<float>(const std::vector<float>&, const std::vector<float>&,
                                    std::size_t, std::size_t);
template double factor_error<double>(const std::vector<double>&, const std::vector<double>&,
                                     std::size_t, std::size_t);

}  // namespace cholesky
