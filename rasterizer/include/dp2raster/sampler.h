// Texture sampling: address modes, point / linear filtering, mip selection.
// Called per pixel (per 2×2 quad for the LOD) on a worker thread; pure functions.
//
// Numerics (so a SIMD version can reproduce the bits): float throughout, built with
// -ffp-contract=off; every interpolation is written a·(1 − t) + b·t, bilinear filtering
// blends along x first (row y0, then row y1) and then along y, mip blending happens last.
// Non-finite coordinates and LODs are made finite first (see sampler.cpp).
#pragma once

#include <cstdint>

#include "dp2raster/types.h"

namespace dp2::raster {

// Values mirror D3DTEXTUREFILTERTYPE (DX8+ numbering; the front end maps DX7's
// D3DTFG/D3DTFN/D3DTFP onto it). kNone as a MAG/MIN filter samples as kPoint;
// kAnisotropic samples as kLinear (isotropic footprint).
enum class Filter : std::uint8_t { kNone = 0, kPoint = 1, kLinear = 2, kAnisotropic = 3 };
// Values mirror D3DTEXTUREADDRESS. Modes apply per coordinate to integer texel indices i
// of a level n texels wide: wrap i mod n; mirror (period 2n, odd periods reversed);
// clamp to [0, n − 1]; border: i outside [0, n) reads the border colour; mirror-once
// (i < 0 → −i − 1, then clamp). address_w is unused (2D textures only).
enum class Address : std::uint8_t { kWrap = 1, kMirror = 2, kClamp = 3, kBorder = 4, kMirrorOnce = 5 };

struct SamplerState {
  Filter mag = Filter::kPoint, min = Filter::kPoint, mip = Filter::kNone;
  Address address_u = Address::kWrap, address_v = Address::kWrap, address_w = Address::kWrap;
  Color border{};              // D3DTSS_BORDERCOLOR
  float lod_bias = 0.0f;       // D3DTSS_MIPMAPLODBIAS
  std::uint32_t max_mip_level = 0;  // D3DTSS_MAXMIPLEVEL / SETTEXLOD: most detailed level used
  bool color_key = false;      // D3DRS_COLORKEYENABLE: keyed texels become transparent black
};

// LOD (log2 of texels per pixel) from the texture-coordinate derivatives across a 2×2
// quad, in texel units of level 0 (du/dx = ∂u/∂x · width0, and so on). The reference
// rasterizer's isotropic rule:
//   λ = log2(max(sqrt(dudx² + dvdx²), sqrt(dudy² + dvdy²)))
// All-zero derivatives give −∞ (pure magnification).
float compute_lod(float dudx, float dvdx, float dudy, float dvdy) noexcept;

// Samples at normalized (u, v) with the given LOD (before lod_bias).
//
// Level selection, with λ' = lod + lod_bias and L = levels − 1,
// m = min(max_mip_level, L) (the most detailed level allowed):
//   λ' ≤ 0 uses the MAG filter, λ' > 0 the MIN filter;
//   MIP NONE:   level m;
//   MIP POINT:  level clamp(floor(λ' + 0.5), m, L) (nearest; a .5 tie goes to the less
//               detailed level);
//   MIP LINEAR: ℓ = clamp(λ', m, L), levels floor(ℓ) and floor(ℓ) + 1 blended by
//               ℓ − floor(ℓ) (only one level when that fraction is 0).
// Texel (i) covers [i/n, (i+1)/n): POINT reads texel floor(u·n); LINEAR reads texels
// floor(u·n − 0.5) and the next one, weighted by the fraction of u·n − 0.5.
//
// With colour keying on (state.color_key && texture.has_color_key), a texel whose
// read_raw bits equal texture.color_key exactly contributes transparent black
// (0, 0, 0, 0); `keyed` (when given) is set when every texel that contributed (had a
// non-zero weight) was keyed, so the pixel pipeline can discard the pixel
// (D3DRENDERSTATE_COLORKEYENABLE). Border texels are never keyed.
//
// A texture with no levels (or a level with no data or zero size) samples as
// transparent black and is not keyed.
Color sample(const TextureView& texture, const SamplerState& state, float u, float v, float lod,
             bool* keyed = nullptr) noexcept;

// The level-selection half of sample(): which level(s), with what weight, and which
// filter — the rules above. `fraction` > 0 only when level0 + 1 exists. Shared by sample()
// and the SIMD kernels, which choose once per 2×2 quad.
// The integers first and the float last: returned by value, the integers then travel in
// one integer register and the float in a vector one (x86-64 SysV), where a float sharing
// the first eight bytes is packed through the stack — a store-forwarding stall per call,
// and the kernels call this twice per 4×2 block.
struct MipChoice {
  std::uint32_t level0 = 0;
  bool linear = false;    // the MAG or MIN filter that applies is (bi)linear
  float fraction = 0.0f;  // weight of level0 + 1
};
MipChoice choose_mip(const TextureView& texture, const SamplerState& state, float lod) noexcept;

}  // namespace dp2::raster
