// Mip level selection: the bodies of sampler.h's compute_lod() and choose_mip(), which
// sampler.cpp's functions forward to, inline for the SIMD kernels (span_kernel.cpp),
// which choose twice per 4×2 block. Called across files, the call and its return were
// about a sixth of the demo scene's time.
//
// Internal linkage (an unnamed namespace), not plain `inline`: span_kernel.cpp is
// compiled once per instruction set, and with external linkage the linker would keep one
// copy — perhaps the AVX2 one — for every caller, the scalar sampler's too. Built with
// -ffp-contract=off like the rest, every copy gives the same bits: scalar float adds,
// multiplies, sqrt and floor are exact IEEE operations, and log2 is the one libm call.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "dp2raster/sampler.h"

namespace dp2::raster {
namespace {

// MIPFILTER POINT picks the nearest level: floor(λ' + 0.5).
constexpr float kMipRoundHalf = 0.5f;
// LODs are clamped to ±64 (far beyond kMaxMipLevels); NaN reads as 0 (magnification).
constexpr float kMaxLod = 64.0f;

inline float finite_lod(float lod) noexcept {
  if (std::isnan(lod)) return 0.0f;
  return std::clamp(lod, -kMaxLod, kMaxLod);
}

// λ = log2(max(sqrt(dudx² + dvdx²), sqrt(dudy² + dvdy²))). sqrt is correctly rounded
// and monotonic, so taking the max of the squared lengths first gives the same bits
// with one sqrt: λ = lod_from_footprint(squared_footprint(...)).
inline float squared_footprint(float dudx, float dvdx, float dudy, float dvdy) noexcept {
  const float len_x2 = dudx * dudx + dvdx * dvdx;
  const float len_y2 = dudy * dudy + dvdy * dvdy;
  return std::max(len_x2, len_y2);
}
inline float lod_from_footprint(float len2) noexcept { return std::log2(std::sqrt(len2)); }

// compute_lod() (sampler.h).
inline float lod_from_derivatives(float dudx, float dvdx, float dudy, float dvdy) noexcept {
  return lod_from_footprint(squared_footprint(dudx, dvdx, dudy, dvdy));
}

// choose_mip() (sampler.h: the level-selection rules).
inline MipChoice select_mip(const TextureView& texture, const SamplerState& state, float lod) noexcept {
  MipChoice out;
  const std::uint32_t count = std::min(texture.levels, kMaxMipLevels);
  const float lambda = finite_lod(lod + state.lod_bias);
  const Filter filter = lambda <= 0.0f ? state.mag : state.min;
  out.linear = filter == Filter::kLinear || filter == Filter::kAnisotropic;
  if (count == 0) return out;

  const std::uint32_t last = count - 1;
  const std::uint32_t most_detailed = std::min(state.max_mip_level, last);
  const float lo = static_cast<float>(most_detailed), hi = static_cast<float>(last);

  out.level0 = most_detailed;
  switch (state.mip) {
    case Filter::kPoint:
      out.level0 = static_cast<std::uint32_t>(std::clamp(std::floor(lambda + kMipRoundHalf), lo, hi));
      break;
    case Filter::kLinear:
    case Filter::kAnisotropic: {
      const float l = std::clamp(lambda, lo, hi);
      const float lf = std::floor(l);
      out.level0 = static_cast<std::uint32_t>(lf);
      out.fraction = l - lf;  // 0 when l == hi, so level0 + 1 stays in range
      break;
    }
    case Filter::kNone:
    default:
      break;
  }
  return out;
}

// select_mip(texture, state, lod_from_derivatives(...)), without the libm call where the
// answer does not depend on it. With no bias, a footprint of at most a texel a pixel
// (len² ≤ 1) has λ = log2(√len²) ≤ 0 (log2 of a value in [0, 1] is ≤ 0, −∞ at 0), and
// select_mip reads such a λ only through λ ≤ 0 (the magnification filter) and clamps it
// from below to the most detailed level, which is ≥ 0 (fraction 0): every λ ≤ 0 gives
// what λ = 0 gives. A NaN length fails len² ≤ 1 and takes the full path. Always inlined:
// the block kernels call it twice per 4×2 block, and out of line (as GCC chose) the call
// cost what the shortcut saves.
[[gnu::always_inline]] inline MipChoice select_mip_from_derivatives(const TextureView& texture,
                                                                    const SamplerState& state, float dudx, float dvdx,
                                                                    float dudy, float dvdy) noexcept {
  const float len2 = squared_footprint(dudx, dvdx, dudy, dvdy);
  if (state.lod_bias == 0.0f && len2 <= 1.0f) return select_mip(texture, state, 0.0f);
  return select_mip(texture, state, lod_from_footprint(len2));
}

}  // namespace
}  // namespace dp2::raster
