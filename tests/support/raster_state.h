// Small pieces of DrawState shared by the rasterizer-level tests.
#pragma once

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

}  // namespace dp2::test
