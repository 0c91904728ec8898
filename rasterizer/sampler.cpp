// Texture sampling (sampler.h). Called per pixel on a worker thread; no state of its own.
//
// Order of operations (fixed, so the SIMD kernels can reproduce the bits; built with
// -ffp-contract=off):
//   λ' = (lod + lod_bias), made finite;  x = u·n (− 0.5 for LINEAR), made finite;
//   i = floor(x), f = x − i (exact for |x| < 2^24);
//   lerp(a, b, t) = a·(1 − t) + b·t, per channel;
//   bilinear = lerp(lerp(t00, t10, fx), lerp(t01, t11, fx), fy);
//   trilinear = lerp(level i0, level i0 + 1, fraction).
#include "dp2raster/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "dp2raster/formats.h"
#include "mip_select.h"

namespace dp2::raster {
namespace {

// D3D9 maps texel i to [i/n, (i+1)/n): its centre is at (i + 0.5)/n, so bilinear
// filtering reads texels around u·n − 0.5.
constexpr float kTexelCentre = 0.5f;
// Texel coordinates are clamped to ±2^30 before the integer conversion: floats carry no
// fraction beyond 2^24 anyway, and this keeps floor() → int64 defined for huge or
// infinite u·n. NaN coordinates read as 0.
constexpr float kMaxTexelCoord = 1073741824.0f;  // 2^30

constexpr Color kTransparentBlack{0.0f, 0.0f, 0.0f, 0.0f};

float finite_coord(float x) noexcept {
  if (std::isnan(x)) return 0.0f;
  return std::clamp(x, -kMaxTexelCoord, kMaxTexelCoord);
}

float lerp(float a, float b, float t) noexcept { return a * (1.0f - t) + b * t; }

Color lerp(const Color& a, const Color& b, float t) noexcept {
  return {lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t), lerp(a.a, b.a, t)};
}

// Index into [0, n), or -1 for "outside: read the border colour". Unknown mode values
// behave as wrap (the D3D default).
std::int64_t address(Address mode, std::int64_t i, std::int64_t n) noexcept {
  switch (mode) {
    case Address::kMirror: {
      const std::int64_t period = 2 * n;
      std::int64_t m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - 1 - m;
    }
    case Address::kClamp:
      return std::clamp<std::int64_t>(i, 0, n - 1);
    case Address::kBorder:
      return (i < 0 || i >= n) ? -1 : i;
    case Address::kMirrorOnce: {
      const std::int64_t j = i < 0 ? -i - 1 : i;  // mirror once around 0 ...
      return std::min(j, n - 1);                  // ... then clamp
    }
    case Address::kWrap:
    default: {
      std::int64_t m = i % n;
      return m < 0 ? m + n : m;
    }
  }
}

struct Texel {
  Color color;
  bool keyed = false;
};

// Texel (x, y) of `level` after addressing; x or y < 0 means border.
Texel fetch(const TextureView& texture, const SamplerState& state, std::uint32_t level, std::int64_t x,
            std::int64_t y, bool keying) noexcept {
  if (x < 0 || y < 0) return {state.border, false};
  const auto ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y);
  // The texel's bits in the texture's format, as decode_texel reads them.
  if (keying && read_raw(texel_image(texture, level), ux, uy) == texture.color_key) return {kTransparentBlack, true};
  return {decode_texel(texture, level, ux, uy), false};
}

// The filtered colour of one level and whether every texel with a non-zero weight was
// keyed (`contributed` is false when nothing was read, e.g. an empty level).
struct LevelSample {
  Color color;
  bool all_keyed = true;
  bool contributed = false;
};

void note(LevelSample& s, const Texel& t) noexcept {
  s.contributed = true;
  s.all_keyed = s.all_keyed && t.keyed;
}

LevelSample sample_level(const TextureView& texture, const SamplerState& state, std::uint32_t level, float u,
                         float v, bool linear, bool keying) noexcept {
  LevelSample out;
  const ImageView& image = texture.level[level];
  if (image.width == 0 || image.height == 0 || image.data == nullptr) {
    out.color = kTransparentBlack;
    out.all_keyed = false;
    return out;
  }
  const auto w = static_cast<std::int64_t>(image.width), h = static_cast<std::int64_t>(image.height);
  const float fw = static_cast<float>(image.width), fh = static_cast<float>(image.height);

  if (!linear) {
    const float x = finite_coord(u * fw), y = finite_coord(v * fh);
    const auto ix = static_cast<std::int64_t>(std::floor(x)), iy = static_cast<std::int64_t>(std::floor(y));
    const Texel t = fetch(texture, state, level, address(state.address_u, ix, w), address(state.address_v, iy, h),
                          keying);
    note(out, t);
    out.color = t.color;
    return out;
  }

  const float x = finite_coord(u * fw - kTexelCentre), y = finite_coord(v * fh - kTexelCentre);
  const float x0f = std::floor(x), y0f = std::floor(y);
  const float fx = x - x0f, fy = y - y0f;  // in [0, 1)
  const auto x0 = static_cast<std::int64_t>(x0f), y0 = static_cast<std::int64_t>(y0f);
  const std::int64_t ax0 = address(state.address_u, x0, w), ax1 = address(state.address_u, x0 + 1, w);
  const std::int64_t ay0 = address(state.address_v, y0, h), ay1 = address(state.address_v, y0 + 1, h);
  const Texel t00 = fetch(texture, state, level, ax0, ay0, keying);
  const Texel t10 = fetch(texture, state, level, ax1, ay0, keying);
  const Texel t01 = fetch(texture, state, level, ax0, ay1, keying);
  const Texel t11 = fetch(texture, state, level, ax1, ay1, keying);
  // Weight (1 − fx)(1 − fy) is never 0; the others are 0 exactly when fx or fy is.
  note(out, t00);
  if (fx > 0.0f) note(out, t10);
  if (fy > 0.0f) note(out, t01);
  if (fx > 0.0f && fy > 0.0f) note(out, t11);
  out.color = lerp(lerp(t00.color, t10.color, fx), lerp(t01.color, t11.color, fx), fy);
  return out;
}

}  // namespace

float compute_lod(float dudx, float dvdx, float dudy, float dvdy) noexcept {
  return lod_from_derivatives(dudx, dvdx, dudy, dvdy);
}

MipChoice choose_mip(const TextureView& texture, const SamplerState& state, float lod) noexcept {
  return select_mip(texture, state, lod);
}

Color sample(const TextureView& texture, const SamplerState& state, float u, float v, float lod,
             bool* keyed) noexcept {
  if (keyed != nullptr) *keyed = false;
  if (std::min(texture.levels, kMaxMipLevels) == 0) return kTransparentBlack;
  const bool keying = state.color_key && texture.has_color_key;
  const MipChoice mip = choose_mip(texture, state, lod);
  const std::uint32_t level0 = mip.level0;
  const float fraction = mip.fraction;
  const bool linear = mip.linear;

  const LevelSample s0 = sample_level(texture, state, level0, u, v, linear, keying);
  LevelSample result = s0;
  if (fraction > 0.0f) {
    const LevelSample s1 = sample_level(texture, state, level0 + 1, u, v, linear, keying);
    result.color = lerp(s0.color, s1.color, fraction);
    result.contributed = s0.contributed || s1.contributed;
    result.all_keyed = (!s0.contributed || s0.all_keyed) && (!s1.contributed || s1.all_keyed);
  }
  if (keyed != nullptr) *keyed = result.contributed && result.all_keyed;
  return result.color;
}

}  // namespace dp2::raster
