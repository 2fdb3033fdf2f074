// simplest_layout: the same bytes in the fewest dimensions.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "copy_layout_shape.hpp"

namespace {

using plexus::CopyLayout;
using plexus::detail::simplest_layout;

// Every byte offset a layout moves, in the order a copy walks them.
std::vector<std::size_t> bytes_of(const CopyLayout& layout) {
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < layout.slices; ++s)
    for (std::size_t r = 0; r < layout.rows; ++r)
      for (std::size_t b = 0; b < layout.row_bytes; ++b)
        out.push_back(layout.offset + s * layout.slice_pitch + r * layout.row_pitch + b);
  return out;
}

// `simple` has the shape given and moves the bytes of `original` in their order.
void check_shape(const CopyLayout& original, const CopyLayout& simple, const CopyLayout& shape) {
  CHECK(simple.row_bytes == shape.row_bytes);
  CHECK(simple.rows == shape.rows);
  CHECK(simple.slices == shape.slices);
  CHECK(simple.row_pitch == shape.row_pitch);
  CHECK(simple.slice_pitch == shape.slice_pitch);
  CHECK(bytes_of(simple) == bytes_of(original));
}

}  // namespace

TEST_CASE("a 2D tile described as slices of one-element rows becomes rows of the tile's width") {
  // What a tile of a 2D buffer of doubles (4096 wide) looked like: 256 slices of 512 rows of
  // one element, rows back to back.
  const CopyLayout tile{1536 * 32768 + 512 * 8, 8, 512, 256, 8, 32768};
  check_shape(tile, simplest_layout(tile), {0, 4096, 256, 1, 32768, 256 * 32768});
}

TEST_CASE("rows and slices back to back become one contiguous row") {
  const CopyLayout whole{64, 16, 4, 3, 16, 64};
  check_shape(whole, simplest_layout(whole), {0, 192, 1, 1, 192, 192});
}

TEST_CASE("a real 3D box keeps its three dimensions") {
  const CopyLayout box{100, 8, 3, 2, 32, 256};
  check_shape(box, simplest_layout(box), box);
}

TEST_CASE("random layouts move the same bytes in the same order after simplifying") {
  std::mt19937 random(7);
  const auto pick = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(random);
  };
  for (int i = 0; i < 2000; ++i) {
    CopyLayout layout;
    layout.offset = pick(0, 64);
    layout.row_bytes = pick(1, 12);
    layout.rows = pick(1, 5);
    layout.slices = pick(1, 4);
    layout.row_pitch = layout.row_bytes + (pick(0, 1) ? 0 : pick(1, 6));
    layout.slice_pitch = layout.rows * layout.row_pitch + (pick(0, 1) ? 0 : pick(1, 9));
    const CopyLayout simple = simplest_layout(layout);
    INFO("layout " << layout.offset << " " << layout.row_bytes << "x" << layout.rows << "x"
                   << layout.slices << " pitches " << layout.row_pitch << " "
                   << layout.slice_pitch);
    REQUIRE(bytes_of(simple) == bytes_of(layout));
    REQUIRE(simple.bytes() == layout.bytes());
    CHECK(simple.row_pitch >= simple.row_bytes);
    CHECK(simple.slice_pitch >= simple.rows * simple.row_pitch);
    if (simple.rows > 1) CHECK(simple.row_pitch > simple.row_bytes);
  }
}
