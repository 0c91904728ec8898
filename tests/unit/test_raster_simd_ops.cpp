// simd.h's vector target for this machine (SSE4.1 on x86, NEON on AArch64), or its scalar
// copy (GCC's generic vectors) when test_raster_simd_ops_scalar.cpp includes this file,
// operation by operation, against the meaning the header's comment gives every target:
// min/max give the second operand when either is NaN, truncation gives INT32_MIN out of
// range or for NaN, integer adds and products wrap, select and bits read all-ones masks.
// The image tests compare whole kernels; these reach the corners (NaN, infinities, ±0,
// values past int32) that images seldom do. On x86 this file is its own executable, built
// with -msse4.1 (tests/CMakeLists.txt says why), again as the AVX2 copy's with
// -mavx2 -mfma (test_raster_simd_ops_avx2.cpp), and as the AVX-512 copy's with its flags
// (test_raster_simd_ops_avx512.cpp); their cases return at once on a CPU without those.
#if defined(DP2_SIMD_OPS_MAIN)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#endif
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#if defined(DP2_SIMD_OPS_SCALAR)
#define DP2_SIMD_TARGET 0
#define DP2_SIMD_NS simd_ops_scalar_test
#define DP2_SIMD_OPS_COPY "scalar copy"
#elif defined(DP2_SIMD_OPS_AVX2)
#if defined(__AVX2__) && defined(__FMA__)
#define DP2_SIMD_TARGET 2
#define DP2_SIMD_NS simd_ops_avx2_test
#define DP2_SIMD_OPS_COPY "AVX2"
#endif
#elif defined(DP2_SIMD_OPS_AVX512)
#if defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define DP2_SIMD_TARGET 4
#define DP2_SIMD_NS simd_ops_avx512_test
#define DP2_SIMD_OPS_COPY "AVX-512"
#endif
#elif defined(__SSE4_1__)
#define DP2_SIMD_TARGET 1
#define DP2_SIMD_NS simd_ops_test
#define DP2_SIMD_OPS_COPY "SSE4.1"
#elif defined(__aarch64__)
#define DP2_SIMD_TARGET 3
#define DP2_SIMD_NS simd_ops_test
#define DP2_SIMD_OPS_COPY "NEON"
#endif

#if defined(DP2_SIMD_TARGET)
#include "simd/simd.h"
#include "simd/block_masks.h"

namespace {

using namespace dp2::raster::DP2_SIMD_NS;

bool target_runs() {
#if DP2_SIMD_TARGET == 1
  return __builtin_cpu_supports("sse4.1");
#elif DP2_SIMD_TARGET == 2
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#elif DP2_SIMD_TARGET == 4
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
#else
  return true;
#endif
}

// Every corner: NaN, infinities, signed zeros, int32's edges, halves.
std::vector<float> named_corners() {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  return {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, -2.5f, inf, -inf, nan, -nan,
          2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 1e-40f, -1e-40f,
          16777215.0f, 3.0e38f};
}

// The named corners first, then random values.
std::vector<float> corner_floats() {
  std::vector<float> v = named_corners();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> any(-3e9f, 3e9f), unit(-2.0f, 2.0f);
  while (v.size() < 4096) v.push_back(v.size() % 2 ? any(rng) : unit(rng));
  return v;
}

std::uint32_t bits_of(float x) { return std::bit_cast<std::uint32_t>(x); }

struct Lanes {
  alignas(32) float f[8];
  alignas(32) std::int32_t i[8];
};

}  // namespace

TEST_CASE("simd ops, " DP2_SIMD_OPS_COPY ": every operation keeps its scalar meaning") {
  if (!target_runs()) return;
  const std::vector<float> in = corner_floats();
  const std::size_t named = named_corners().size();
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::size_t> pick(0, in.size() - 1);
  std::uniform_int_distribution<std::int32_t> any_int(std::numeric_limits<std::int32_t>::min(),
                                                      std::numeric_limits<std::int32_t>::max());
  for (int round = 0; round < 4000; ++round) {
    CAPTURE(round);
    alignas(32) float a[8], b[8];
    alignas(32) std::int32_t p[8], q[8], m[8];
    for (int k = 0; k < 8; ++k) {
      // The first rounds take every ordered pair of the named corners (a = +0 with b = −0
      // tells min's and max's operand order apart); the rest draw from all of them.
      const std::size_t pair = static_cast<std::size_t>(round) * 8 + static_cast<std::size_t>(k);
      const bool corner_pair = pair < named * named;
      a[k] = corner_pair ? in[pair / named] : in[pick(rng)];
      b[k] = corner_pair ? in[pair % named] : round % 7 == 0 ? a[k] : in[pick(rng)];
      p[k] = any_int(rng);
      q[k] = round % 5 == 0 ? p[k] : any_int(rng);
      m[k] = (p[k] & 1) ? -1 : 0;  // a mask: all ones or zero
    }
    const F8 fa = load(a), fb = load(b);
    const I8 ia = load_i(p), ib = load_i(q), im = load_i(m);
    Lanes r;
    auto f_lanes = [&](F8 x) { store(r.f, x); };
    auto i_lanes = [&](I8 x) { store_i(r.i, x); };
    f_lanes(min(fa, fb));
    for (int k = 0; k < 8; ++k) CHECK(bits_of(r.f[k]) == bits_of(a[k] < b[k] ? a[k] : b[k]));
    f_lanes(max(fa, fb));
    for (int k = 0; k < 8; ++k) CHECK(bits_of(r.f[k]) == bits_of(a[k] > b[k] ? a[k] : b[k]));
    f_lanes(floor(fa));
    for (int k = 0; k < 8; ++k) CHECK((std::isnan(a[k]) ? std::isnan(r.f[k]) : bits_of(r.f[k]) == bits_of(std::floor(a[k]))));
    f_lanes(fa * fb + fa / fb - fb);
    for (int k = 0; k < 8; ++k) {
      const float want = a[k] * b[k] + a[k] / b[k] - b[k];  // no FMA: -ffp-contract=off
      CHECK((std::isnan(want) ? std::isnan(r.f[k]) : bits_of(r.f[k]) == bits_of(want)));
    }
    i_lanes(cmp_lt(fa, fb));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == (a[k] < b[k] ? -1 : 0));
    i_lanes(cmp_le(fa, fb));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == (a[k] <= b[k] ? -1 : 0));
    i_lanes(cmp_gt(fa, fb));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == (a[k] > b[k] ? -1 : 0));
    i_lanes(is_nan(fa));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == (std::isnan(a[k]) ? -1 : 0));
    i_lanes(truncate(fa));
    for (int k = 0; k < 8; ++k) {
      // cvttps: truncation toward zero when the result fits int32, else INT32_MIN.
      const bool fits = a[k] > -2147483904.0f && a[k] < 2147483648.0f;
      CHECK(r.i[k] == (fits ? static_cast<std::int32_t>(a[k]) : std::numeric_limits<std::int32_t>::min()));
    }
    f_lanes(to_float(ia));
    for (int k = 0; k < 8; ++k) CHECK(bits_of(r.f[k]) == bits_of(static_cast<float>(p[k])));
    auto wrap = [](std::uint32_t x) { return static_cast<std::int32_t>(x); };
    const auto up = [&](int k) { return static_cast<std::uint32_t>(p[k]); };
    const auto uq = [&](int k) { return static_cast<std::uint32_t>(q[k]); };
    i_lanes(ia + ib);
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap(up(k) + uq(k)));
    i_lanes(ia - ib);
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap(up(k) - uq(k)));
    i_lanes(mul_lo(ia, ib));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap(up(k) * uq(k)));
    i_lanes(andnot(ia, ib) ^ (ia | ib));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == ((~p[k] & q[k]) ^ (p[k] | q[k])));
    i_lanes(shl<8>(ia) & shr<24>(ib));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap((up(k) << 8) & (uq(k) >> 24)));
    i_lanes(byte_at<0>(ia));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap(up(k) & 0xFFu));
    i_lanes(byte_at<1>(ia));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap((up(k) >> 8) & 0xFFu));
    i_lanes(byte_at<2>(ia));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap((up(k) >> 16) & 0xFFu));
    i_lanes(byte_at<3>(ia));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap(up(k) >> 24));
    {
      // exact_product_plus() is a·b + c for an exact product: here an 8-bit integer times
      // a 16-bit mantissa (at most 24 bits), plus any value, corners included.
      alignas(32) float x[8], y[8];
      for (int k = 0; k < 8; ++k) {
        x[k] = static_cast<float>(up(k) & 0xFFu);
        y[k] = std::ldexp(static_cast<float>(uq(k) & 0xFFFFu), static_cast<int>(uq(k) >> 26) - 40);
      }
      f_lanes(exact_product_plus(load(x), load(y), fb));
      for (int k = 0; k < 8; ++k) {
        const float want = x[k] * y[k] + b[k];  // no FMA: -ffp-contract=off
        CHECK((std::isnan(want) ? std::isnan(r.f[k]) : bits_of(r.f[k]) == bits_of(want)));
      }
    }
    i_lanes(cmp_gt(ia, ib) | shl<1>(cmp_eq(ia, ib)));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == ((p[k] > q[k] ? -1 : 0) | (p[k] == q[k] ? -2 : 0)));
    i_lanes(min(ia, ib) - max(ia, ib));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == wrap(static_cast<std::uint32_t>(std::min(p[k], q[k])) -
                                                      static_cast<std::uint32_t>(std::max(p[k], q[k]))));
    f_lanes(select(im, fa, fb));
    for (int k = 0; k < 8; ++k) CHECK(bits_of(r.f[k]) == bits_of(m[k] ? a[k] : b[k]));
    i_lanes(select(im, ia, ib));
    for (int k = 0; k < 8; ++k) CHECK(r.i[k] == (m[k] ? p[k] : q[k]));
    int want_bits = 0;
    for (int k = 0; k < 8; ++k) want_bits |= (m[k] ? 1 : 0) << k;
    CHECK(bits(im) == want_bits);
  }
}

TEST_CASE("simd ops, " DP2_SIMD_OPS_COPY ": gathers, pair gathers and 4x2 row loads (32- and 16-bit) put each value in its lane") {
  if (!target_runs()) return;
  std::uint32_t table[64];
  for (std::uint32_t k = 0; k < 64; ++k) table[k] = 0x01000193u * (k + 1);  // distinct values
  alignas(32) const std::int32_t index[8] = {5, 0, 62, 17, 17, 33, 1, 40};
  Lanes r;
  store_i(r.i, gather(table, load_i(index)));
  for (int k = 0; k < 8; ++k) CHECK(static_cast<std::uint32_t>(r.i[k]) == table[index[k]]);
  I8 first, second;
  gather_pair(table, load_i(index), first, second);
  Lanes s;
  store_i(r.i, first);
  store_i(s.i, second);
  for (int k = 0; k < 8; ++k) {
    CHECK(static_cast<std::uint32_t>(r.i[k]) == table[index[k]]);
    CHECK(static_cast<std::uint32_t>(s.i[k]) == table[index[k] + 1]);
  }
  // Lanes 0–3 from the first row, 4–7 from the second, and back.
  std::uint32_t rows[2][6] = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
  store_i(r.i, load_rows(&rows[0][1], &rows[1][2]));
  const std::int32_t want[8] = {2, 3, 4, 5, 9, 10, 11, 12};
  for (int k = 0; k < 8; ++k) CHECK(r.i[k] == want[k]);
  std::uint32_t out[2][4] = {};
  store_rows(out[0], out[1], load_i(want));
  for (int k = 0; k < 4; ++k) {
    CHECK(out[0][k] == static_cast<std::uint32_t>(want[k]));
    CHECK(out[1][k] == static_cast<std::uint32_t>(want[k + 4]));
  }
  // The same for 16-bit pixels: zero-extended into the lanes (0xFFFF stays 65535), and
  // each lane's low 16 bits written back.
  std::uint16_t rows16[2][6] = {{1, 0xFFFF, 3, 0x8000, 5, 6}, {7, 8, 9, 0x7FFF, 11, 12}};
  store_i(r.i, load_rows16(&rows16[0][1], &rows16[1][2]));
  const std::int32_t want16[8] = {0xFFFF, 3, 0x8000, 5, 9, 0x7FFF, 11, 12};
  for (int k = 0; k < 8; ++k) CHECK(r.i[k] == want16[k]);
  std::uint16_t out16[2][6] = {};
  store_rows16(&out16[0][1], &out16[1][1], load_i(want16));
  for (int k = 0; k < 4; ++k) {
    CHECK(out16[0][k + 1] == want16[k]);
    CHECK(out16[1][k + 1] == want16[k + 4]);
  }
  for (int row = 0; row < 2; ++row) {  // nothing outside the four pixels of each row
    CHECK(out16[row][0] == 0);
    CHECK(out16[row][5] == 0);
  }
}

TEST_CASE("simd ops, " DP2_SIMD_OPS_COPY ": a grid's block masks are coverage.h's, lane for lane") {
  // block_masks (the kernels' own coverage of a small triangle) against the portable
  // definition: edge functions anywhere in uint32 (their stepping wraps) and near zero,
  // where single lanes flip; every block's mask and the OR of them all.
  if (!target_runs()) return;
  std::mt19937 rng(0x6D41);
  std::uniform_int_distribution<std::uint32_t> any;
  std::uniform_int_distribution<std::int32_t> near(-40, 40), row_count(1, 32), col_count(1, 16);
  constexpr std::ptrdiff_t kStride = 16;
  for (int n = 0; n < 20000; ++n) {
    dp2::raster::GridEdges g;
    for (int k = 0; k < 3; ++k) {
      const bool wide = n % 2 == 0;
      g.c[k] = wide ? any(rng) : static_cast<std::uint32_t>(near(rng));
      g.sx[k] = wide ? any(rng) : static_cast<std::uint32_t>(near(rng) / 8);
      g.sy[k] = wide ? any(rng) : static_cast<std::uint32_t>(near(rng) / 8);
    }
    const std::int32_t rows = row_count(rng), cols = col_count(rng);
    std::uint8_t want[32 * kStride], got[32 * kStride];
    std::memset(want, 0xA5, sizeof want);
    std::memset(got, 0xA5, sizeof got);
    const int want_all = dp2::raster::grid_block_masks_portable(g, rows, cols, want, kStride);
    const int got_all = block_masks(g, rows, cols, got, kStride);
    REQUIRE(std::memcmp(want, got, sizeof want) == 0);  // outside the grid: both untouched
    REQUIRE(got_all == want_all);
  }
}

TEST_CASE("simd ops, " DP2_SIMD_OPS_COPY ": a row's mask bits name its covered and its full blocks, the first cols only") {
  // row_masks against its definition: bit k of `covered` is set where row[k] != 0, of
  // `full` where row[k] == 0xFF, for k < cols; the bytes past cols (a grid narrower than
  // a tile leaves them as they were) change neither. Masks drawn from 0, 0xFF and others.
  if (!target_runs()) return;
  std::mt19937 rng(0x526F);
  std::uniform_int_distribution<int> kind(0, 3), byte(1, 0xFE), col_count(0, 16);
  for (int n = 0; n < 20000; ++n) {
    alignas(16) std::uint8_t row[16];
    for (std::uint8_t& m : row) {
      const int k = kind(rng);
      m = static_cast<std::uint8_t>(k == 0 ? 0 : k == 1 ? 0xFF : byte(rng));
    }
    const std::int32_t cols = col_count(rng);
    std::uint32_t covered = 0, full = 0;
    for (std::int32_t k = 0; k < cols; ++k) {
      if (row[k] != 0) covered |= 1u << k;
      if (row[k] == 0xFF) full |= 1u << k;
    }
    const RowMasks got = row_masks(row, cols);
    REQUIRE(got.covered == covered);
    REQUIRE(got.full == full);
  }
}

#endif  // DP2_SIMD_TARGET
