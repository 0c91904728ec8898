// coverage.h's grid_block_masks in this copy's 8-wide vectors (simd.h): a 4×2 block's
// eight lanes are one vector per edge, where the baseline SSE2 form needs two, so the
// block kernels find a small triangle's lanes themselves (span.h: BlockGrid::edges).
//
// Include only after simd.h, from a per-ISA source. Uses GridEdges' fields and nothing
// else of coverage.h: an inline function of a shared header called from this copy could
// be the one the linker keeps for every copy (simd.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "coverage.h"
#include "simd/simd.h"

namespace dp2::raster::DP2_SIMD_NS {

// masks[row · stride + col] = the lanes of block (col, row) where all three edge functions
// are ≥ 0; returns the OR of all the masks. The same residues modulo 2^32 as
// grid_block_masks_portable (its definition), reached by wrapping adds from the first
// block: lane i starts at c + (i % 4)·sx + (i / 4)·sy and steps 4·sx a block right, 2·sy
// a block down.
inline int block_masks(const GridEdges& g, std::int32_t rows, std::int32_t cols, std::uint8_t* masks,
                       std::ptrdiff_t stride) {
  I8 row_start[3], right[3], down[3];
  for (int k = 0; k < 3; ++k) {
    // Written lane by lane and loaded: GCC folds the constant multipliers, and this was
    // fewer instructions than masked adds of splatted steps (callgrind, W4).
    alignas(32) std::uint32_t first[kLanes];
    for (int i = 0; i < kLanes; ++i)
      first[i] = g.c[k] + static_cast<std::uint32_t>(i % 4) * g.sx[k] + static_cast<std::uint32_t>(i / 4) * g.sy[k];
    row_start[k] = load_i(first);
    right[k] = splat_i(static_cast<std::int32_t>(4u * g.sx[k]));  // modular conversion (C++20)
    down[k] = splat_i(static_cast<std::int32_t>(2u * g.sy[k]));
  }
  int all = 0;
  for (std::int32_t row = 0; row < rows; ++row) {
    I8 e0 = row_start[0], e1 = row_start[1], e2 = row_start[2];
    std::uint8_t* out = masks + row * stride;
    for (std::int32_t col = 0; col < cols; ++col) {
      // A lane is in when no edge function's sign bit is set.
      const int m = ~bits(e0 | e1 | e2) & 0xFF;
      out[col] = static_cast<std::uint8_t>(m);
      all |= m;
      e0 = e0 + right[0];
      e1 = e1 + right[1];
      e2 = e2 + right[2];
    }
    for (int k = 0; k < 3; ++k) row_start[k] = row_start[k] + down[k];
  }
  return all;
}

}  // namespace dp2::raster::DP2_SIMD_NS
