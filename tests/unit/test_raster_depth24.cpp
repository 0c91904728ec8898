// The SIMD kernels' float-only 24-bit depth quantiser (simd.h: quantize_unorm24) against
// the rule the scalar pipeline spells in double (formats.cpp: depth_from_float):
// D24 depth = floor(z·(2^24 − 1) + 0.5) for z in [0, 1]. The function is written once on
// top of simd.h's primitives; this compiles the scalar copy, whose primitives define what
// every target must do.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#define DP2_SIMD_TARGET 0
#define DP2_SIMD_NS simd_depth24_test
#include "simd/simd.h"

namespace {

using namespace dp2::raster::simd_depth24_test;

// Counts lanes that differ from the double formula over floats with bit patterns
// first, first + stride, … up to and including last.
std::uint64_t mismatches(std::uint32_t first, std::uint32_t last, std::uint32_t stride) {
  std::uint64_t bad = 0;
  for (std::uint64_t b = first; b <= last;) {
    alignas(32) float z[8];
    for (float& v : z) {
      v = std::bit_cast<float>(static_cast<std::uint32_t>(b <= last ? b : last));
      b += stride;
    }
    alignas(32) std::int32_t got[8];
    store_i(got, quantize_unorm24(load(z)));
    for (int i = 0; i < 8; ++i) {
      const auto want = static_cast<std::int32_t>(std::floor(static_cast<double>(z[i]) * 16777215.0 + 0.5));
      bad += got[i] != want ? 1 : 0;
    }
  }
  return bad;
}

constexpr std::uint32_t kOne = 0x3F800000u;  // 1.0f

TEST_CASE("depth24: the float quantiser equals floor(z·(2^24 − 1) + 0.5) across [0, 1]") {
  // Every 61st float of [0, 1] (17 million), plus every float of the top binade [0.5, 1],
  // where the products are largest and halves are hit exactly, and the smallest floats.
  CHECK(mismatches(0, kOne, 61) == 0);
  CHECK(mismatches(0x3F000000u, kOne, 1) == 0);
  CHECK(mismatches(0, 0x00100000u, 1) == 0);
}

TEST_CASE("depth24: the quantiser's corners") {
  alignas(32) const float z[8] = {0.0f, -0.0f, 1.0f, 0.5f, 1.0f / 16777215.0f, 0.5f / 16777215.0f,
                                  std::nextafter(1.0f, 0.0f), 1.5f / 16777215.0f};
  alignas(32) std::int32_t got[8];
  store_i(got, quantize_unorm24(load(z)));
  CHECK(got[0] == 0);
  CHECK(got[1] == 0);
  CHECK(got[2] == 16777215);  // 1.0 is the largest depth
  CHECK(got[3] == 8388608);   // 0.5·(2^24 − 1) = 8388607.5 rounds up
  CHECK(got[4] == 1);
  // 0.5/(2^24 − 1) in float is a hair off the exact tie; whichever side, the double rule
  // decides, and it must agree.
  CHECK(got[5] == static_cast<std::int32_t>(std::floor(static_cast<double>(z[5]) * 16777215.0 + 0.5)));
  CHECK(got[6] == 16777214);  // (1 − 2^-24)·(2^24 − 1) = 2^24 − 2 + 2^-24
  CHECK(got[7] == static_cast<std::int32_t>(std::floor(static_cast<double>(z[7]) * 16777215.0 + 0.5)));
}

}  // namespace
