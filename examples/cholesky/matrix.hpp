// The demo's input and its check: a symmetric positive definite n x n matrix (row-major), and
// how far L * L^T is from it. Pure functions, safe from any thread.
#pragma once

#include <cstddef>
#include <vector>

namespace cholesky {

// Symmetric, diagonally dominant with a positive diagonal: positive definite.
std::vector<double> spd_matrix(std::size_t n);

// Largest |(L L^T)_ij - A_ij| over the lower triangle's rows checked (`rows` of them evenly
// spaced, first and last included; 0 or >= n: all), relative to max |A_ij| there. `l` holds
// L in its lower triangle (the upper one is ignored). NaN when L * L^T has a NaN there.
double factor_error(const std::vector<double>& l, const std::vector<double>& a, std::size_t n,
                    std::size_t rows);

}  // namespace cholesky
