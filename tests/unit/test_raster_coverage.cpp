// The lane coverage of 4×2 blocks (rasterizer/coverage.h): of a split block in int64 and
// of a grid of blocks in int32, each portable form against the rule, and on x86 the SSE2
// form the rasterizer runs against both, as x86 builds otherwise never run the portable
// forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <random>

#include "coverage.h"

namespace {

using Lanes = std::int64_t[3][8];

// The rule, one lane at a time: a pixel centre is inside when every edge function is
// ≥ 0 (the top-left bias is already in e_k, tile.cpp's Edges).
int rule_mask(std::int64_t e0, std::int64_t e1, std::int64_t e2, const Lanes& lane) {
  int m = 0;
  for (int i = 0; i < 8; ++i)
    if (e0 + lane[0][i] >= 0 && e1 + lane[1][i] >= 0 && e2 + lane[2][i] >= 0) m |= 1 << i;
  return m;
}

}  // namespace

TEST_CASE("coverage: a split block's lanes are those where all three edge functions are >= 0") {
  // An edge crossing the block: lane i's first edge function is e0 + lane[0][i] = i − 3,
  // so lanes 3–7 are in (0 counts as inside) and lanes 0–2 out; the other edges keep all.
  Lanes lane{};
  for (int i = 0; i < 8; ++i) lane[0][i] = i;
  CHECK(dp2::raster::split_block_mask_portable(-3, 0, 0, lane) == 0xF8);
  // The third edge −1 on every lane: nothing is inside.
  CHECK(dp2::raster::split_block_mask_portable(-3, 0, -1, lane) == 0);
  // Lanes 0, 2, 4, 6 out by the second edge as well: 3, 5, 7 remain.
  for (int i = 0; i < 8; i += 2) lane[1][i] = -1;
  CHECK(dp2::raster::split_block_mask_portable(-3, 0, 0, lane) == 0xA8);
}

TEST_CASE("coverage: the rasterizer's split-block mask equals the rule and the portable form") {
  std::mt19937_64 rng(0xC0FE);
  // Edge functions and lane offsets of either sign, many of them summing to −1, 0 or +1,
  // where the sign test decides; magnitudes stay far from int64 overflow (as the
  // rasterizer's, bounded by the guard band, do).
  std::uniform_int_distribution<std::int64_t> wide(-(std::int64_t{1} << 50), std::int64_t{1} << 50);
  std::uniform_int_distribution<int> small(-2, 2), pick(0, 2);
  for (int n = 0; n < 100000; ++n) {
    Lanes lane;
    std::int64_t e[3];
    for (int k = 0; k < 3; ++k) {
      e[k] = wide(rng);
      for (int i = 0; i < 8; ++i) {
        const int how = pick(rng);
        lane[k][i] = how == 0 ? wide(rng) : -e[k] + small(rng);  // near the edge, or anywhere
      }
    }
    const int want = rule_mask(e[0], e[1], e[2], lane);
    REQUIRE(dp2::raster::split_block_mask_portable(e[0], e[1], e[2], lane) == want);
    REQUIRE(dp2::raster::split_block_mask(e[0], e[1], e[2], lane) == want);
#if defined(__SSE2__)
    REQUIRE(dp2::raster::split_block_mask_sse2(e[0], e[1], e[2], lane) == want);
#endif
  }
}

namespace {

// A triangle's edge functions as tile.cpp's Edges defines them, in exact int64: edge k runs
// from vertex k to k + 1 (subpixel coordinates, 8 fraction bits, positive orientation),
// E_k(px, py) = dx·(py·256 − y_k) − dy·(px·256 − x_k) + bias_k, with bias 0 on a top or
// left edge (dy < 0, or dy = 0 and dx > 0) and −1 elsewhere.
struct RuleEdges {
  std::int64_t dx[3], dy[3], x[3], y[3], bias[3];
  RuleEdges(const std::int64_t (&vx)[3], const std::int64_t (&vy)[3]) {
    for (int k = 0; k < 3; ++k) {
      dx[k] = vx[(k + 1) % 3] - vx[k];
      dy[k] = vy[(k + 1) % 3] - vy[k];
      x[k] = vx[k];
      y[k] = vy[k];
      bias[k] = dy[k] < 0 || (dy[k] == 0 && dx[k] > 0) ? 0 : -1;
    }
  }
  std::int64_t at(int k, std::int64_t px, std::int64_t py) const {
    return dx[k] * (py * 256 - y[k]) - dy[k] * (px * 256 - x[k]) + bias[k];
  }
  bool covers(std::int64_t px, std::int64_t py) const { return at(0, px, py) >= 0 && at(1, px, py) >= 0 && at(2, px, py) >= 0; }
  // The mask of block (col, row) of a grid whose first pixel is (gx, gy): bit i is the
  // pixel centre at (i % 4, i / 4) in the block.
  int block_mask(std::int64_t gx, std::int64_t gy, std::int32_t col, std::int32_t row) const {
    int m = 0;
    for (int i = 0; i < 8; ++i)
      if (covers(gx + 4 * col + i % 4, gy + 2 * row + i / 4)) m |= 1 << i;
    return m;
  }
};

}  // namespace

TEST_CASE("coverage: a grid of blocks in int32 covers exactly the pixel centres the rule covers") {
  // Random triangles up to 80 pixels across around a grid of up to 128 blocks, as the
  // rasterizer passes whole (up to 16 columns of a 64-pixel tile, or 32 rows), at a random
  // place, their vertices anywhere in subpixels: each lane's mask bit must be the rule's
  // answer at that pixel centre.
  std::mt19937_64 rng(0xB10C);
  std::uniform_int_distribution<std::int64_t> origin(-2000, 2000), spread(-40 * 256, 40 * 256);
  std::uniform_int_distribution<int> row_count(1, 32), col_count(1, 16);
  constexpr std::int32_t kMaxRows = 32, kMaxBlocks = 128;
  int fitted = 0, covered = 0;
  for (int n = 0; n < 20000; ++n) {
    const std::int64_t gx = origin(rng), gy = origin(rng);  // the grid's first pixel
    std::int32_t rows = row_count(rng), cols = col_count(rng);
    while (rows * cols > kMaxBlocks) rows = row_count(rng);
    std::int64_t vx[3], vy[3];
    for (int k = 0; k < 3; ++k) {  // around the grid's centre
      vx[k] = gx * 256 + cols * 2 * 256 + spread(rng);
      vy[k] = gy * 256 + rows * 256 + spread(rng);
    }
    // Positive orientation, as setup leaves every triangle.
    const std::int64_t area = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0]);
    if (area == 0) continue;
    if (area < 0) {
      std::swap(vx[1], vx[2]);
      std::swap(vy[1], vy[2]);
    }
    const RuleEdges rule(vx, vy);
    const std::int64_t c[3] = {rule.at(0, gx, gy), rule.at(1, gx, gy), rule.at(2, gx, gy)};
    const std::int64_t sx[3] = {-rule.dy[0] * 256, -rule.dy[1] * 256, -rule.dy[2] * 256};
    const std::int64_t sy[3] = {rule.dx[0] * 256, rule.dx[1] * 256, rule.dx[2] * 256};
    dp2::raster::GridEdges g;
    if (!dp2::raster::grid_edges_fit(c, sx, sy, rows, cols, g)) continue;
    ++fitted;
    constexpr std::ptrdiff_t kStride = 17;  // wider than the grid: rows land at their stride
    std::uint8_t portable[kMaxRows * kStride], fast[kMaxRows * kStride];
    std::memset(portable, 0xA5, sizeof portable);
    std::memset(fast, 0xA5, sizeof fast);
    const int portable_all = dp2::raster::grid_block_masks_portable(g, rows, cols, portable, kStride);
    const int fast_all = dp2::raster::grid_block_masks(g, rows, cols, fast, kStride);
    int want_all = 0;  // the OR of every block's mask, which both return
    for (std::int32_t row = 0; row < rows; ++row)
      for (std::int32_t col = 0; col < cols; ++col) {
        const int want = rule.block_mask(gx, gy, col, row);
        covered += want != 0;
        want_all |= want;
        REQUIRE(portable[row * kStride + col] == want);
        REQUIRE(fast[row * kStride + col] == want);
      }
    REQUIRE(portable_all == want_all);
    REQUIRE(fast_all == want_all);
    // Bytes outside the grid are left alone.
    for (std::int32_t row = 0; row < kMaxRows; ++row)
      for (std::int32_t col = row < rows ? cols : 0; col < kStride; ++col) REQUIRE(fast[row * kStride + col] == 0xA5);
  }
  CHECK(fitted > 10000);  // 80-pixel triangles fit in int32: the cases above ran
  CHECK(covered > 10000);
}

TEST_CASE("coverage: a linear function's range over a rectangle is set by its corners") {
  // Steps +3 right, −2 down over 4 × 2 centres: the corners change it by 0, +9, −2 and +7.
  const dp2::raster::LinearRange r = dp2::raster::linear_range(3, -2, 4, 2);
  CHECK(r.lo == -2);
  CHECK(r.hi == 9);
  // One centre: no change either way.
  const dp2::raster::LinearRange one = dp2::raster::linear_range(-5, 7, 1, 1);
  CHECK(one.lo == 0);
  CHECK(one.hi == 0);
}

TEST_CASE("coverage: a grid fits in int32 exactly when every pixel centre's value does") {
  // One edge with steps sx = 1 and sy = 0 across a 1 × 1 grid (4 × 2 pixels): its values
  // are c … c + 3. The other two edges are 0 everywhere.
  dp2::raster::GridEdges g;
  const std::int64_t sx[3] = {1, 0, 0}, sy[3] = {0, 0, 0};
  constexpr std::int64_t kMax = INT32_MAX, kMin = INT32_MIN;
  CHECK(dp2::raster::grid_edges_fit({kMax - 3, 0, 0}, sx, sy, 1, 1, g));
  CHECK_FALSE(dp2::raster::grid_edges_fit({kMax - 2, 0, 0}, sx, sy, 1, 1, g));
  CHECK(dp2::raster::grid_edges_fit({kMin, 0, 0}, sx, sy, 1, 1, g));
  CHECK_FALSE(dp2::raster::grid_edges_fit({kMin - 1, 0, 0}, sx, sy, 1, 1, g));
  // Down the grid: sy = −1 over 3 rows of blocks reaches c − 5.
  const std::int64_t down[3] = {-1, 0, 0};
  CHECK(dp2::raster::grid_edges_fit({kMin + 5, 0, 0}, sx, down, 3, 1, g));
  CHECK_FALSE(dp2::raster::grid_edges_fit({kMin + 4, 0, 0}, sx, down, 3, 1, g));
  // At the limits, the masks still read the signs right: c = INT32_MIN … INT32_MIN + 3
  // (all negative) gives no lanes, c = INT32_MAX − 3 … INT32_MAX all.
  std::uint8_t m = 0xA5;
  REQUIRE(dp2::raster::grid_edges_fit({kMin, 0, 0}, sx, sy, 1, 1, g));
  dp2::raster::grid_block_masks(g, 1, 1, &m, 1);
  CHECK(m == 0);
  REQUIRE(dp2::raster::grid_edges_fit({kMax - 3, 0, 0}, sx, sy, 1, 1, g));
  dp2::raster::grid_block_masks(g, 1, 1, &m, 1);
  CHECK(m == 0xFF);
  // −2 … +1: lanes 2, 3 of each row (values 0, 1) are in.
  REQUIRE(dp2::raster::grid_edges_fit({-2, 0, 0}, sx, sy, 1, 1, g));
  dp2::raster::grid_block_masks(g, 1, 1, &m, 1);
  CHECK(m == 0xCC);
  dp2::raster::grid_block_masks_portable(g, 1, 1, &m, 1);
  CHECK(m == 0xCC);
}

namespace {

// The three vertices in positive orientation (as setup leaves them), or false for a
// zero-area triangle.
bool orient(std::int64_t (&vx)[3], std::int64_t (&vy)[3]) {
  const std::int64_t area = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0]);
  if (area < 0) {
    std::swap(vx[1], vx[2]);
    std::swap(vy[1], vy[2]);
  }
  return area != 0;
}

}  // namespace

TEST_CASE("coverage: a small triangle's int32 edge functions cover exactly the pixel centres the rule covers") {
  // Triangles up to 64 pixels across anywhere in the guard band (±2^28 subpixels, where
  // the uint32 products wrap many times over), with grids of up to 128 blocks starting up
  // to 3 pixels left of and 1 above the pixel box of the vertices, as tile.cpp's are: each
  // lane's mask bit must be the rule's answer at that pixel centre.
  std::mt19937_64 rng(0x5A11);
  std::uniform_int_distribution<std::int64_t> place(-(std::int64_t{1} << 28) + 20000, (std::int64_t{1} << 28) - 20000);
  std::uniform_int_distribution<std::int64_t> spread(0, dp2::raster::kSmallExtent);
  std::uniform_int_distribution<int> back_x(0, 3), back_y(0, 1), row_count(1, 32), col_count(1, 16);
  int covered = 0;
  for (int n = 0; n < 20000; ++n) {
    // Small triangles are mostly tiny: a quarter of them at full size, the rest within 16
    // pixels.
    const std::int64_t extent = n % 4 == 0 ? dp2::raster::kSmallExtent : 16 * 256;
    const std::int64_t ox = place(rng), oy = place(rng);
    std::int64_t vx[3], vy[3];
    for (int k = 0; k < 3; ++k) {
      vx[k] = ox + spread(rng) % (extent + 1);
      vy[k] = oy + spread(rng) % (extent + 1);
    }
    if (!orient(vx, vy)) continue;
    const std::int64_t x_lo = std::min({vx[0], vx[1], vx[2]}), x_hi = std::max({vx[0], vx[1], vx[2]});
    const std::int64_t y_lo = std::min({vy[0], vy[1], vy[2]}), y_hi = std::max({vy[0], vy[1], vy[2]});
    REQUIRE(dp2::raster::small_triangle(x_lo, y_lo, x_hi, y_hi));
    // The grid's first pixel: left of and above the box's first pixel centre.
    const std::int64_t gx = ((x_lo + 255) >> 8) - back_x(rng), gy = ((y_lo + 255) >> 8) - back_y(rng);
    std::int32_t rows = row_count(rng), cols = col_count(rng);
    while (rows * cols > 128) rows = row_count(rng);
    // Keep the grid within the reach the bound assumes (tile.cpp's never leave it).
    while (cols > 1 && (gx + 4 * cols - 1) * 256 > x_hi + dp2::raster::kSmallReach) --cols;
    while (rows > 1 && (gy + 2 * rows - 1) * 256 > y_hi + dp2::raster::kSmallReach) --rows;
    const RuleEdges rule(vx, vy);
    const std::int32_t x32[3] = {static_cast<std::int32_t>(vx[0]), static_cast<std::int32_t>(vx[1]),
                                 static_cast<std::int32_t>(vx[2])};
    const std::int32_t y32[3] = {static_cast<std::int32_t>(vy[0]), static_cast<std::int32_t>(vy[1]),
                                 static_cast<std::int32_t>(vy[2])};
    const dp2::raster::GridEdges g = dp2::raster::small_triangle_edges<8>(x32, y32, static_cast<std::int32_t>(gx),
                                                                         static_cast<std::int32_t>(gy));
    constexpr std::ptrdiff_t kStride = 16;
    std::uint8_t masks[32 * kStride];
    const int all = dp2::raster::grid_block_masks(g, rows, cols, masks, kStride);
    int want_all = 0;
    for (std::int32_t row = 0; row < rows; ++row)
      for (std::int32_t col = 0; col < cols; ++col) {
        const int want = rule.block_mask(gx, gy, col, row);
        covered += want != 0;
        want_all |= want;
        REQUIRE(masks[row * kStride + col] == want);
      }
    REQUIRE(all == want_all);
  }
  CHECK(covered > 10000);
}

TEST_CASE("coverage: a small triangle's edge functions stay in int32 out to its reach") {
  // The bound coverage.h derives, checked in exact int64 on the triangles that come
  // nearest it: vertices at corners of a box of the largest small span, every edge
  // evaluated at the four corners of the reach around the box.
  constexpr std::int64_t kE = dp2::raster::kSmallExtent, kR = dp2::raster::kSmallReach;
  const std::int64_t corner_x[4] = {0, kE, kE, 0}, corner_y[4] = {0, 0, kE, kE};
  std::int64_t largest = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c) {
        std::int64_t vx[3] = {corner_x[a], corner_x[b], corner_x[c]}, vy[3] = {corner_y[a], corner_y[b], corner_y[c]};
        if (!orient(vx, vy)) continue;
        const RuleEdges rule(vx, vy);
        for (const std::int64_t px : {-kR, kE + kR})
          for (const std::int64_t py : {-kR, kE + kR})
            for (int k = 0; k < 3; ++k) {
              // At a subpixel position, not only pixel centres: the bound holds for any.
              const std::int64_t e = rule.dx[k] * (py - rule.y[k]) - rule.dy[k] * (px - rule.x[k]) + rule.bias[k];
              largest = std::max(largest, e < 0 ? -e : e);
            }
      }
  CHECK(largest > (std::int64_t{1} << 29));  // the corners come near the bound
  CHECK(largest < (std::int64_t{1} << 31));
  // One subpixel over the span is no longer small.
  CHECK(dp2::raster::small_triangle(5, 7, 5 + kE, 7 + kE));
  CHECK_FALSE(dp2::raster::small_triangle(5, 7, 5 + kE + 1, 7));
  CHECK_FALSE(dp2::raster::small_triangle(5, 7, 5, 7 + kE + 1));
}
