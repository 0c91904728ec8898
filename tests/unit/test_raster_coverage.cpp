// The lane coverage of a split 4×2 block (rasterizer/coverage.h): the portable form
// against the rule, and on x86 the SSE2 form the rasterizer runs against the portable
// form, which x86 builds otherwise never run.
#include <doctest/doctest.h>

#include <cstdint>
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
