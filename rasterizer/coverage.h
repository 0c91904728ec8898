// Lane coverage of one 4×2 block that a triangle edge cuts (tile.cpp's block descent).
// Header-only so the tests can hold the SSE2 form against the portable one on x86, where
// a build never compiles the portable form into the rasterizer.
#pragma once

#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dp2::raster {

// Lane i (at (i % 4, i / 4) in the block) is covered when all three edge functions,
// e_k + lane[k][i], are ≥ 0 — exactly when their OR has no sign bit, so no branch per
// lane. Bit i of the result is lane i. The definition every other form must match.
inline int split_block_mask_portable(std::int64_t e0, std::int64_t e1, std::int64_t e2,
                                     const std::int64_t (&lane)[3][8]) {
  int m = 0;
  for (int i = 0; i < 8; ++i)
    m |= static_cast<int>(((e0 + lane[0][i]) | (e1 + lane[1][i]) | (e2 + lane[2][i])) >= 0) << i;
  return m;
}

#if defined(__SSE2__)
// SSE2 (every x86-64): two int64 lanes per add, their signs read with one movmskpd. The
// sums are the same exact int64 values as the portable form's. Compiled to scalar int64
// code, the portable loop was about 110 instructions per block (W4 +4% with this form).
inline int split_block_mask_sse2(std::int64_t e0, std::int64_t e1, std::int64_t e2, const std::int64_t (&lane)[3][8]) {
  const __m128i v0 = _mm_set1_epi64x(e0), v1 = _mm_set1_epi64x(e1), v2 = _mm_set1_epi64x(e2);
  int outside = 0;  // bit i: lane i has a negative edge function
  for (int i = 0; i < 8; i += 2) {
    const __m128i l0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&lane[0][i]));
    const __m128i l1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&lane[1][i]));
    const __m128i l2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&lane[2][i]));
    const __m128i any = _mm_or_si128(_mm_or_si128(_mm_add_epi64(v0, l0), _mm_add_epi64(v1, l1)), _mm_add_epi64(v2, l2));
    outside |= _mm_movemask_pd(_mm_castsi128_pd(any)) << i;
  }
  return ~outside & 0xFF;
}
#endif

inline int split_block_mask(std::int64_t e0, std::int64_t e1, std::int64_t e2, const std::int64_t (&lane)[3][8]) {
#if defined(__SSE2__)
  return split_block_mask_sse2(e0, e1, e2, lane);
#else
  return split_block_mask_portable(e0, e1, e2, lane);
#endif
}

}  // namespace dp2::raster
