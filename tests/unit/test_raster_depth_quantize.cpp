// The SIMD kernels' float-only depth quantisers (simd.h: quantize_unorm24, quantize_unorm16)
// against the rule the scalar pipeline spells in double (formats.cpp: depth_from_float):
// depth = floor(z·(2^bits − 1) + 0.5) for z in [0, 1]. The functions are written once on
// top of simd.h's primitives; this compiles the scalar copy, whose primitives define what
// every target must do (test_raster_simd.cpp compares the targets' kernels with it).
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#define DP2_SIMD_TARGET 0
#define DP2_SIMD_NS simd_depth_quantize_test
#include "simd/simd.h"

namespace {

using namespace dp2::raster::simd_depth_quantize_test;

// The D3D rule in double, as depth_from_float() writes it: (2^bits − 1) is the largest
// depth, and the product and the half are exact in double for every float z.
std::int32_t rule(float z, double max_depth) {
  return static_cast<std::int32_t>(std::floor(static_cast<double>(z) * max_depth + 0.5));
}

// Counts lanes where `quantize` differs from the rule over floats with bit patterns
// first, first + stride, … up to and including last.
template <class Quantize>
std::uint64_t mismatches(Quantize quantize, double max_depth, std::uint32_t first, std::uint32_t last,
                         std::uint32_t stride) {
  std::uint64_t bad = 0;
  for (std::uint64_t b = first; b <= last;) {
    alignas(32) float z[8];
    for (float& v : z) {
      v = std::bit_cast<float>(static_cast<std::uint32_t>(b <= last ? b : last));
      b += stride;
    }
    alignas(32) std::int32_t got[8];
    store_i(got, quantize(load(z)));
    for (int i = 0; i < 8; ++i) bad += got[i] != rule(z[i], max_depth) ? 1 : 0;
  }
  return bad;
}

constexpr std::uint32_t kOne = 0x3F800000u;  // 1.0f
constexpr double kMax24 = 16777215.0, kMax16 = 65535.0;
const auto unorm24 = [](F8 z) { return quantize_unorm24(z); };
const auto unorm16 = [](F8 z) { return quantize_unorm16(z); };

TEST_CASE("depth quantize: the float quantisers equal floor(z·(2^bits − 1) + 0.5) across [0, 1]") {
  // Every 61st float of [0, 1] (17 million), plus every float of the top binade [0.5, 1],
  // where the products are largest and halves are hit exactly, and the smallest floats.
  CHECK(mismatches(unorm24, kMax24, 0, kOne, 61) == 0);
  CHECK(mismatches(unorm24, kMax24, 0x3F000000u, kOne, 1) == 0);
  CHECK(mismatches(unorm24, kMax24, 0, 0x00100000u, 1) == 0);
  CHECK(mismatches(unorm16, kMax16, 0, kOne, 61) == 0);
  CHECK(mismatches(unorm16, kMax16, 0x3F000000u, kOne, 1) == 0);
  CHECK(mismatches(unorm16, kMax16, 0, 0x00100000u, 1) == 0);
  // D16's own trap: [2^-16, 2^-15), where z·65535 first lands near halves (0.5 … 1.5) and
  // the f − 1/2 and z − 1/2 tests of quantize_unorm16 are far from exact in magnitude.
  CHECK(mismatches(unorm16, kMax16, 0x37800000u, 0x38000000u, 1) == 0);
}

TEST_CASE("depth quantize: the 24-bit quantiser's corners") {
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
  CHECK(got[5] == rule(z[5], kMax24));
  CHECK(got[6] == 16777214);  // (1 − 2^-24)·(2^24 − 1) = 2^24 − 2 + 2^-24
  CHECK(got[7] == rule(z[7], kMax24));
}

TEST_CASE("depth quantize: the 16-bit quantiser's corners") {
  alignas(32) const float z[8] = {0.0f, -0.0f, 1.0f, 0.5f, 1.0f / 65535.0f, 0.5f / 65535.0f,
                                  std::nextafter(1.0f, 0.0f), 0.25f};
  alignas(32) std::int32_t got[8];
  store_i(got, quantize_unorm16(load(z)));
  CHECK(got[0] == 0);
  CHECK(got[1] == 0);
  CHECK(got[2] == 65535);  // 1.0 is the largest depth: 2^16 − 1, the "one down" case
  CHECK(got[3] == 32768);  // 0.5·65535 = 32767.5 rounds up
  CHECK(got[4] == 1);
  CHECK(got[5] == rule(z[5], kMax16));  // near the tie: the double rule decides
  CHECK(got[6] == 65535);  // (1 − 2^-24)·65535 = 65535 − 0.0039…, rounds to 65535
  CHECK(got[7] == 16384);  // 0.25·65535 = 16383.75
}

}  // namespace
