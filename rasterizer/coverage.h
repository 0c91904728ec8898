// Lane coverage of 4×2 blocks (tile.cpp's block descent): of one block that a triangle
// edge cuts, in exact int64, and of a whole grid of blocks whose edge functions fit in
// int32. Header-only so the tests can hold the SSE2 forms against the portable ones on
// x86, where a build never compiles the portable forms into the rasterizer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
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

// The top-left rule's bias for the edge from a vertex to the next, (dx, dy) apart (y down,
// positive orientation): 0 on a top edge (horizontal, running in +x) or a left edge
// (running in −y), −1 elsewhere, so a pixel centre exactly on an edge belongs to one of
// the two triangles sharing it. Without branches (`|`, `&` on bools): random triangles'
// edge signs are coin tosses to a branch predictor, and W4 sets up a million a frame.
template <class Int>
Int top_left_bias(Int dx, Int dy) {
  const bool top_left = (dy < 0) | ((dy == 0) & (dx > 0));
  return static_cast<Int>(static_cast<Int>(top_left) - 1);
}

// How far a linear function can move from its value at the first pixel centre of a
// w × h rectangle of centres, one step sx per pixel right and sy per pixel down: its
// extremes sit at the corners, so the least change is the sum of the negative corner
// steps and the greatest the sum of the positive ones. The one form of this bound for the
// rectangle classification, the block in / out tests and the int32 fit test.
struct LinearRange {
  std::int64_t lo, hi;
};
inline LinearRange linear_range(std::int64_t sx, std::int64_t sy, std::int64_t w, std::int64_t h) {
  const std::int64_t across = sx * (w - 1), down = sy * (h - 1);
  return {std::min<std::int64_t>(0, across) + std::min<std::int64_t>(0, down),
          std::max<std::int64_t>(0, across) + std::max<std::int64_t>(0, down)};
}

// A grid of 4×2 blocks whose three edge functions take only int32 values at its pixel
// centres: the whole part of a tile that a triangle touches when that part is small (up
// to 128 blocks: W4's 10-pixel triangles, W5's 200-pixel ones), and the cut squares of
// larger ones. Four lanes per 32-bit add where the exact form needs
// one int64 add per lane pair, and no per-block in/out tests: the sign bits decide.
//
// The values are kept modulo 2^32 (uint32, whose wrap-around is defined): every true
// value at a pixel centre of the grid fits in int32, so its residue read as int32 is
// exact, whatever the intermediate steps (one block past the last column) wrap to.
struct GridEdges {
  std::uint32_t c[3];   // edge k at the grid's first pixel centre, top-left bias included
  std::uint32_t sx[3];  // its step one pixel right
  std::uint32_t sy[3];  // and one pixel down
};

// Fills `out` for a grid of rows × cols blocks when every edge function value at its
// pixel centres lies in int32, and returns whether it does. c: the exact edge functions
// at the first pixel centre; sx, sy: their steps (|sx|, |sy| < 2^40, as the guard band
// gives).
inline bool grid_edges_fit(const std::int64_t (&c)[3], const std::int64_t (&sx)[3], const std::int64_t (&sy)[3],
                           std::int32_t rows, std::int32_t cols, GridEdges& out) {
  for (int k = 0; k < 3; ++k) {
    const LinearRange r = linear_range(sx[k], sy[k], 4 * std::int64_t{cols}, 2 * std::int64_t{rows});
    if (c[k] + r.lo < std::numeric_limits<std::int32_t>::min() || c[k] + r.hi > std::numeric_limits<std::int32_t>::max())
      return false;
    out.c[k] = static_cast<std::uint32_t>(c[k]);
    out.sx[k] = static_cast<std::uint32_t>(sx[k]);
    out.sy[k] = static_cast<std::uint32_t>(sy[k]);
  }
  return true;
}

// Small triangles (W4's ten-pixel ones, W5's two-hundred-pixel ones) skip the int64 edge
// functions and grid_edges_fit's range test, which cost more than their masks: their edge
// functions come straight from the snapped vertices in uint32 arithmetic.
//
// Edge k runs from vertex k to k + 1: E_k(px, py) = dx·(py·2^b − y_k) − dy·(px·2^b − x_k)
// + bias_k (b fraction bits, bias from top_left_bias(), as in tile.cpp's Edges). Small: the vertices' bounding
// box spans at most kSmallExtent subpixels each way. At a pixel centre within kSmallReach
// subpixels of that box, with X, Y the spans and R the reach,
//   |E_k| ≤ |dx|·|py·2^b − y_k| + |dy|·|px·2^b − x_k| + 1 ≤ X·(Y + R) + Y·(X + R) + 1
//        ≤ 2·2^14·2^15 + 1 < 2^31,
// so every value fits in int32 and its residue modulo 2^32 — what wrapping uint32 products
// and sums give, however the intermediate terms overflow — read as int32 is exact
// (GridEdges).
inline constexpr std::int64_t kSmallExtent = std::int64_t{1} << 14;
inline constexpr std::int64_t kSmallReach = std::int64_t{1} << 14;

// Whether a triangle whose snapped vertices span [x_lo, x_hi] × [y_lo, y_hi] is small.
inline bool small_triangle(std::int64_t x_lo, std::int64_t y_lo, std::int64_t x_hi, std::int64_t y_hi) {
  return x_hi - x_lo <= kSmallExtent && y_hi - y_lo <= kSmallExtent;
}

// A small triangle's edge functions (vertices with kBits fraction bits, positive
// orientation) for a grid whose first pixel centre is (px, py). Every pixel centre of the
// grid must lie within kSmallReach subpixels of the vertices' box: tile.cpp's grids hold
// the blocks of pixels inside the triangle's bounds, at most 3 pixels past them sideways
// and 1 up or down.
template <int kBits>
GridEdges small_triangle_edges(const std::int32_t (&x)[3], const std::int32_t (&y)[3], std::int32_t px,
                               std::int32_t py) {
  static_assert(kBits >= 0 && kBits < 16);
  const auto ux = static_cast<std::uint32_t>(px) << kBits, uy = static_cast<std::uint32_t>(py) << kBits;
  GridEdges out;
  // Written per edge, not as a loop: GCC kept the loop, and its index arithmetic cost as
  // much as the edges.
  auto edge = [&](int k, int b) {
    const std::int32_t dx = x[b] - x[k], dy = y[b] - y[k];  // |d| ≤ kSmallExtent: no overflow
    const auto udx = static_cast<std::uint32_t>(dx), udy = static_cast<std::uint32_t>(dy);
    out.c[k] = udx * (uy - static_cast<std::uint32_t>(y[k])) - udy * (ux - static_cast<std::uint32_t>(x[k])) +
               static_cast<std::uint32_t>(top_left_bias(dx, dy));
    out.sx[k] = (0u - udy) << kBits;
    out.sy[k] = udx << kBits;
  };
  edge(0, 1);
  edge(1, 2);
  edge(2, 0);
  return out;
}

// masks[row · stride + col] = the lanes of block (col, row) — at pixel (4·col, 2·row) from
// the grid's first — where all three edge functions are ≥ 0; returns the OR of all the
// masks (0: no lane covered). The definition the SSE2 form must match: each lane's values
// evaluated afresh, their OR's sign bit read.
inline int grid_block_masks_portable(const GridEdges& g, std::int32_t rows, std::int32_t cols, std::uint8_t* masks,
                                     std::ptrdiff_t stride) {
  int all = 0;
  for (std::int32_t row = 0; row < rows; ++row)
    for (std::int32_t col = 0; col < cols; ++col) {
      int m = 0;
      for (int i = 0; i < 8; ++i) {
        const auto px = static_cast<std::uint32_t>(4 * col + i % 4), py = static_cast<std::uint32_t>(2 * row + i / 4);
        std::uint32_t any = 0;
        for (int k = 0; k < 3; ++k) any |= g.c[k] + px * g.sx[k] + py * g.sy[k];
        m |= static_cast<int>(static_cast<std::int32_t>(any) >= 0) << i;
      }
      masks[row * stride + col] = static_cast<std::uint8_t>(m);
      all |= m;
    }
  return all;
}

#if defined(__SSE2__)
// SSE2: per edge, a vector for each of the block's two pixel rows, stepped by adds from
// block to block; one movmskps per row reads the lanes' signs.
inline int grid_block_masks_sse2(const GridEdges& g, std::int32_t rows, std::int32_t cols, std::uint8_t* masks,
                                 std::ptrdiff_t stride) {
  int inside_any = 0;  // bit set: some block had that lane inside
  __m128i top[3], bottom[3], right[3], down[3];
  for (int k = 0; k < 3; ++k) {
    const std::uint32_t c = g.c[k], sx = g.sx[k];
    top[k] = _mm_setr_epi32(static_cast<int>(c), static_cast<int>(c + sx), static_cast<int>(c + 2 * sx),
                            static_cast<int>(c + 3 * sx));
    bottom[k] = _mm_add_epi32(top[k], _mm_set1_epi32(static_cast<int>(g.sy[k])));
    right[k] = _mm_set1_epi32(static_cast<int>(4 * sx));
    down[k] = _mm_set1_epi32(static_cast<int>(2 * g.sy[k]));
  }
  for (std::int32_t row = 0; row < rows; ++row) {
    __m128i t0 = top[0], t1 = top[1], t2 = top[2], b0 = bottom[0], b1 = bottom[1], b2 = bottom[2];
    std::uint8_t* out = masks + row * stride;
    for (std::int32_t col = 0; col < cols; ++col) {
      const int outside = _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(_mm_or_si128(t0, t1), t2))) |
                          _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(_mm_or_si128(b0, b1), b2))) << 4;
      out[col] = static_cast<std::uint8_t>(~outside);
      inside_any |= ~outside;
      t0 = _mm_add_epi32(t0, right[0]);
      t1 = _mm_add_epi32(t1, right[1]);
      t2 = _mm_add_epi32(t2, right[2]);
      b0 = _mm_add_epi32(b0, right[0]);
      b1 = _mm_add_epi32(b1, right[1]);
      b2 = _mm_add_epi32(b2, right[2]);
    }
    for (int k = 0; k < 3; ++k) {
      top[k] = _mm_add_epi32(top[k], down[k]);
      bottom[k] = _mm_add_epi32(bottom[k], down[k]);
    }
  }
  return inside_any & 0xFF;
}
#endif

inline int grid_block_masks(const GridEdges& g, std::int32_t rows, std::int32_t cols, std::uint8_t* masks,
                            std::ptrdiff_t stride) {
#if defined(__SSE2__)
  return grid_block_masks_sse2(g, rows, cols, masks, stride);
#else
  return grid_block_masks_portable(g, rows, cols, masks, stride);
#endif
}

}  // namespace dp2::raster
