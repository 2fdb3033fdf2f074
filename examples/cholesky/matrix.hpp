// The demo's input and its check: a symmetric positive definite n x n matrix (row-major) of
// float or double elements, and how far L * L^T is from it. Pure functions, safe from any
// thread; instantiated for float and double.
#pragma once

#include <cstddef>
#include <vector>

#include "precision.hpp"

namespace cholesky {

// Symmetric, diagonally dominant with a positive diagonal: positive definite.
template <class T>
std::vector<T> spd_matrix(std::size_t n);

// Largest |(L L^T)_ij - A_ij| over the lower triangle's rows checked (`rows` of them evenly
// spaced, first and last included; 0 or >= n: all), relative to max |A_ij| there, summed in
// double whatever T is. `l` holds L in its lower triangle (the upper one is ignored). NaN
// when L * L^T has a NaN there.
template <class T>
double factor_error(const std::vector<T>& l, const std::vector<T>& a, std::size_t n,
                    std::size_t rows);

// The factor_error() below which a factor of T passes: 1e-10 for double (about 5e5 of its
// epsilon), 1e-5 for float (about 84 of its epsilon: float factors of the demo's matrix
// measured 1.3e-7 to 5e-7 from n 256 to 8192 with either kernel set, on the host; a factor
// whose tiles went wrong is off by far more).
template <class T>
constexpr double error_bound() {
  return of_element<T>(1e-5, 1e-10);
}

}  // namespace cholesky
