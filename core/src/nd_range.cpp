#include "plexus/nd_range.hpp"

#include "plexus/error.hpp"

namespace plexus {

namespace {

std::string triple(const std::array<std::size_t, 3>& values, std::size_t dimensions) {
  std::string text = "{";
  for (std::size_t d = 0; d < dimensions; ++d) {
    if (d) text += ", ";
    text += std::to_string(values[d]);
  }
  return text + "}";
}

[[noreturn]] void refuse(const std::string& what, const std::string& problem) {
  throw error(error_category::invalid_argument, what + ": " + problem);
}

}  // namespace

void validate(const NdRange& range, const std::string& what) {
  const std::size_t dims = range.dimensions;
  if (dims < 1 || dims > 3) {
    refuse(what, "an nd-range has 1 to 3 dimensions, not " + std::to_string(dims));
  }
  for (std::size_t d = 0; d < 3; ++d) {
    if (range.global[d] == 0) {
      refuse(what, "the global size " + triple(range.global, dims) + " has a zero in dimension " +
                       std::to_string(d));
    }
    if (d >= dims && (range.global[d] != 1 || range.offset[d] != 0 ||
                      (range.has_local_size() && range.local[d] != 1))) {
      refuse(what, "dimension " + std::to_string(d) + " is unused in a " + std::to_string(dims) +
                       "D range and must have size 1 and offset 0");
    }
  }
  if (!range.has_local_size()) return;
  for (std::size_t d = 0; d < dims; ++d) {
    if (range.local[d] == 0) {
      refuse(what, "the work-group size " + triple(range.local, dims) + " has a zero in dimension " +
                       std::to_string(d));
    }
    if (range.global[d] % range.local[d] != 0) {
      refuse(what, "the global size " + triple(range.global, dims) +
                       " is not a multiple of the work-group size " + triple(range.local, dims) +
                       " in dimension " + std::to_string(d));
    }
  }
}

}  // namespace plexus
