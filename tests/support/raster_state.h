// Small pieces of DrawState shared by the rasterizer-level tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dp2raster/pipeline.h"

namespace dp2::test {

// One stage that outputs its argument `arg` (kArgDiffuse, kArgTexture, ...) as colour
// and alpha, unchanged (SELECTARG1): a test sees the diffuse colour or the texel itself.
inline void select_only(raster::DrawState& s, std::uint8_t arg) {
  s.stage_count = 1;
  raster::StageState& st = s.stages[0];
  st.color_op = st.alpha_op = raster::TextureOp::kSelectArg1;
  st.color_arg = {raster::kArgCurrent, arg, raster::kArgCurrent};
  st.alpha_arg = {raster::kArgCurrent, arg, raster::kArgCurrent};
}

// A 1×1 A8R8G8B8 texture over `texel`, one level; the level's own format field says
// `level_format` (texels are read in the texture's format, formats.h: texel_image).
inline raster::TextureView one_texel(std::uint32_t& texel, raster::Format level_format) {
  raster::TextureView texture;
  texture.format = raster::Format::kA8R8G8B8;
  texture.levels = 1;
  texture.level[0] = {level_format, 1, 1, 4, reinterpret_cast<std::byte*>(&texel)};
  return texture;
}

}  // namespace dp2::test
