// Box geometry of the core (box3.hpp): subtraction, coalescing, sets and layout facts.
#include <catch2/catch.hpp>

#include "plexus/box3.hpp"

using namespace plexus;

namespace {
Box3 box(Extent3 offset, Extent3 extent) { return {offset, extent}; }
}  // namespace

TEST_CASE("box subtraction leaves disjoint pieces of the right volume") {
  const Box3 a = box({0, 0, 0}, {10, 10, 10});
  const Box3 b = box({2, 3, 4}, {3, 3, 3});
  std::vector<Box3> pieces;
  subtract(a, b, pieces);
  std::size_t total = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    total += volume(pieces[i]);
    CHECK_FALSE(intersects(pieces[i], b));
    for (std::size_t j = i + 1; j < pieces.size(); ++j)
      CHECK_FALSE(intersects(pieces[i], pieces[j]));
  }
  CHECK(total == 1000 - 27);
  CHECK(pieces.size() <= 6);

  pieces.clear();
  subtract(a, box({20, 0, 0}, {1, 1, 1}), pieces);
  CHECK(pieces == std::vector<Box3>{a});
  pieces.clear();
  subtract(b, a, pieces);
  CHECK(pieces.empty());
}

TEST_CASE("coalescing merges rows into slabs and slabs into blocks") {
  std::vector<Box3> boxes;
  for (std::size_t z = 0; z < 2; ++z) {
    for (std::size_t y = 0; y < 4; ++y) {
      for (std::size_t x = 0; x < 4; x += 2) boxes.push_back(box({z, y, x}, {1, 1, 2}));
    }
  }
  coalesce(boxes);
  CHECK(boxes == std::vector<Box3>{box({0, 0, 0}, {2, 4, 4})});

  std::vector<Box3> apart{box({0, 0, 0}, {1, 1, 5}), box({0, 0, 6}, {1, 1, 2})};
  coalesce(apart);
  CHECK(apart.size() == 2);
}

TEST_CASE("box sets add, subtract and intersect") {
  BoxSet set;
  set.add(box({0, 0, 0}, {10, 1, 1}));
  set.add(box({5, 0, 0}, {10, 1, 1}));
  CHECK(set.boxes() == std::vector<Box3>{box({0, 0, 0}, {15, 1, 1})});
  set.subtract(box({3, 0, 0}, {2, 1, 1}));
  CHECK(set.volume() == 13);
  CHECK(set.boxes().size() == 2);
  BoxSet part = set.intersection(box({0, 0, 0}, {6, 1, 1}));
  CHECK(part.volume() == 4);
  CHECK(set.intersects(box({14, 0, 0}, {1, 1, 1})));
  CHECK_FALSE(set.intersects(box({3, 0, 0}, {2, 1, 1})));
}

// Each add/subtract of one box replaces the set's storage: a set (or a box of it) passed to
// itself was read after it was freed (ASan: heap-use-after-free in BoxSet::add/subtract).
TEST_CASE("box sets passed to themselves") {
  BoxSet set;
  for (std::size_t i = 0; i < 8; ++i) set.add(box({0, 0, 3 * i}, {1, 1, 2}));
  REQUIRE(set.boxes().size() == 8);
  set.add(set);
  CHECK(set.boxes().size() == 8);
  CHECK(set.volume() == 16);
  set.add(set.boxes()[3]);
  CHECK(set.volume() == 16);
  set.subtract(set.boxes()[0]);
  CHECK(set.volume() == 14);
  set.subtract(set);
  CHECK(set.empty());
}

TEST_CASE("layout: linear offsets, contiguity and rounding to pages") {
  const Extent3 e{4, 8, 16};
  CHECK(linear_offset(box({1, 2, 3}, {1, 1, 1}), e) == (1 * 8 + 2) * 16 + 3);
  CHECK(is_contiguous(box({0, 0, 0}, e), e));
  CHECK(is_contiguous(box({1, 0, 0}, {2, 8, 16}), e));
  CHECK(is_contiguous(box({1, 3, 0}, {1, 2, 16}), e));
  CHECK(is_contiguous(box({1, 3, 2}, {1, 1, 5}), e));
  CHECK_FALSE(is_contiguous(box({1, 3, 2}, {1, 2, 5}), e));
  CHECK_FALSE(is_contiguous(box({0, 0, 0}, {2, 4, 16}), e));
  CHECK(round_out(box({3, 5, 0}, {2, 1, 1}), {2, 4, 16}, e) == box({2, 4, 0}, {2, 4, 16}));
  CHECK(round_out(box({3, 0, 0}, {1, 1, 1}), {3, 3, 3}, e) == box({3, 0, 0}, {1, 3, 3}));
}
