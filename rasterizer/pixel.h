// The pixel pipeline: texture stages, specular, fog, alpha test, stencil and depth,
// blending, dithering and the write — in the order Direct3D's fixed-function pipeline
// applies them. Called per covered pixel on a worker thread, inside the tile that owns
// the pixel, so it needs no synchronisation.
#pragma once

#include <array>
#include <cstdint>

#include "dp2raster/pipeline.h"

namespace dp2::raster {

// One pixel's interpolated inputs.
struct Fragment {
  std::int32_t x = 0, y = 0;
  float z = 0.0f;      // screen-space depth, before the viewport clamp
  float w = 1.0f;      // eye-space w (1 / interpolated rhw)
  Color diffuse, specular;
  std::array<std::array<float, 4>, kMaxTextureCoordSets> tex{};
  std::array<float, kMaxTextureStages> lod{};  // per stage, from the 2×2 quad
  bool back_facing = false;
};

// Shades and writes one fragment; returns true when it was written (passed every test).
using FragmentKernel = bool (*)(const DrawState& state, const Fragment& fragment);

// The kernel specialised for `state`'s features (depth/stencil, blending, fog compiled in
// or out), chosen once per draw on the submitting thread — never per primitive or pixel.
// Every kernel gives the bytes the generic one (all features compiled in) gives.
FragmentKernel choose_fragment_kernel(const DrawState& state);
bool shade_fragment(const DrawState& state, const Fragment& fragment);  // the generic kernel

// The texture coordinate sets a pixel actually reads: state.texcoord_sets narrowed to the
// stages that sample a texture (a stage without one reads D3DTA_TEXTURE as opaque white
// and never looks at its coordinates). Only these are stored per triangle and interpolated.
std::uint8_t sampled_texcoord_sets(const DrawState& state);

// The ordered-dither offset of pixel (x, y), in units of the target's least significant
// bit (D3DRS_DITHERENABLE), and whether `f`'s channels dither at all (fewer than 8 bits).
float dither_offset(std::int32_t x, std::int32_t y);
bool dithers(Format f);

// The raw bits of a render-target format that D3DRS_COLORWRITEENABLE's `mask` lets through.
std::uint32_t write_mask_bits(Format f, std::uint8_t mask);

// Level-of-detail for each stage of `state` from a quad's texture coordinates:
// tex[p] are the coordinates of pixels (0,0), (1,0), (0,1) of the quad.
void quad_lods(const DrawState& state, const std::array<std::array<float, 4>, kMaxTextureCoordSets>* tex[3],
               std::array<float, kMaxTextureStages>& lod);

}  // namespace dp2::raster
