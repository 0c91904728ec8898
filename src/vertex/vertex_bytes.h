// Reading a vertex's fields from a draw's vertex bytes: floats and D3DCOLORs.
// Shared by the pre-transformed fetch (fetch.cpp) and the transform (transform.cpp), on
// the render threads and the GPU worker.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>

#include "dp2/ddi.h"
#include "dp2raster/types.h"

namespace dp2::vertex {

inline float load_float(const std::byte* p) {
  float f;
  std::memcpy(&f, p, sizeof f);
  return f;
}

inline DWORD load_dword(const std::byte* p) {
  DWORD d;
  std::memcpy(&d, p, sizeof d);
  return d;
}

// q / 255 for every byte q, divided at compile time: the correctly rounded quotient a
// division at run time gives in the default rounding mode (which the render threads
// keep; the table gives it in any mode), read with one load instead of a division per
// channel. W4 fetches three million colours a frame, four divisions each.
inline constexpr std::array<float, 256> kUnorm8 = [] {
  std::array<float, 256> t{};
  for (std::size_t q = 0; q < t.size(); ++q) t[q] = static_cast<float>(q) / 255.0f;
  return t;
}();

// A D3DCOLOR (0xAARRGGBB) as channels in [0, 1].
inline raster::Color color_from_argb(DWORD c) {
  return {kUnorm8[(c >> 16) & 0xFFu], kUnorm8[(c >> 8) & 0xFFu], kUnorm8[c & 0xFFu], kUnorm8[c >> 24]};
}

}  // namespace dp2::vertex
