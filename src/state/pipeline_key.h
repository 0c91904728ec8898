// What the back end needs from the state, split as STYLE.md §5 says:
//   PipelineKey  — everything that changes the code path (which kernel runs);
//   DrawUniforms — data the kernel reads (fog colour, alpha ref, TFACTOR, ...).
// Test for a new field: does changing it require a different kernel? Then it is a key
// field; otherwise a uniform.
//
// Both are derived from a StateBlock lazily: derive_pipeline() runs once per draw whose
// state is dirty, never per primitive or pixel.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "state/state_block.h"

namespace dp2::state {

// Per texture stage, the part that selects code. Bytes, so the key has no padding and
// compares and hashes as raw bytes (SwiftShader's memset-zeroed States).
struct StageKey {
  std::uint8_t color_op = 0, color_arg0 = 0, color_arg1 = 0, color_arg2 = 0;
  std::uint8_t alpha_op = 0, alpha_arg0 = 0, alpha_arg1 = 0, alpha_arg2 = 0;
  std::uint8_t result_arg = 0;
  std::uint8_t texcoord_index = 0;  // low 3 bits of D3DTSS_TEXCOORDINDEX
  std::uint8_t texgen = 0;          // D3DTSS_TCI_* >> 16
  std::uint8_t has_texture = 0;
  std::uint8_t mag_filter = 0, min_filter = 0, mip_filter = 0;
  std::uint8_t address_u = 0, address_v = 0, address_w = 0;

  bool operator==(const StageKey&) const = default;
};

struct PipelineKey {
  std::uint8_t fill_mode = 0, shade_mode = 0, cull_mode = 0, last_pixel = 0;
  std::uint8_t z_mode = 0;  // D3DZBUFFERTYPE: 0 off, 1 Z, 2 W
  std::uint8_t z_func = 0, z_write = 0;
  std::uint8_t stencil = 0, two_sided_stencil = 0;
  std::uint8_t alpha_test = 0, alpha_func = 0;
  std::uint8_t blend = 0, src_blend = 0, dst_blend = 0, blend_op = 0;
  std::uint8_t separate_alpha = 0, src_blend_alpha = 0, dst_blend_alpha = 0, blend_op_alpha = 0;
  std::uint8_t color_write = 0, dither = 0;
  std::uint8_t fog = 0, fog_table_mode = 0, fog_vertex_mode = 0, range_fog = 0;
  std::uint8_t specular = 0, color_key = 0, color_key_blend = 0, scissor = 0;
  std::uint8_t active_stages = 0;  // stages before the first COLOROP = DISABLE
  std::uint8_t legacy_modulate = 0;  // DX5 D3DTBLEND_MODULATE on stage 0 (legacy_states.cpp)
  std::uint8_t dx7_filters = 0;      // filters in DX7 D3DTFG/D3DTFN/D3DTFP numbering
  std::array<StageKey, kTextureStages> stages{};

  bool operator==(const PipelineKey&) const = default;
  std::uint64_t hash() const noexcept;
  std::string to_string() const;
};

struct DrawUniforms {
  DWORD fog_color = 0;
  float fog_start = 0.0f, fog_end = 1.0f, fog_density = 1.0f;
  DWORD alpha_ref = 0;
  DWORD texture_factor = 0xFFFFFFFFu;
  DWORD blend_factor = 0xFFFFFFFFu;
  DWORD stencil_ref = 0, stencil_mask = 0xFFFFFFFFu, stencil_write_mask = 0xFFFFFFFFu;
  std::array<DWORD, 4> stencil_ops{}, ccw_stencil_ops{};  // fail, zfail, pass, func
  DWORD z_bias = 0;
  Viewport viewport;
  D3DHAL_DP2ZRANGE zrange{0.0f, 1.0f};
  D3DHAL_DP2WINFO winfo{};
  RECT scissor{0, 0, 0, 0};
  std::array<DWORD, kTextureStages> textures{};       // surface handles (D3DTSS_TEXTUREMAP)
  std::array<DWORD, kTextureStages> border_colors{};
  std::array<float, kTextureStages> lod_bias{};
  std::array<DWORD, kTextureStages> max_mip_level{};  // MAXMIPLEVEL, raised by the texture's SETTEXLOD
  // D3DTSS_BUMPENVMAT00, 01, 10, 11, BUMPENVLSCALE, BUMPENVLOFFSET per stage.
  std::array<std::array<float, 6>, kTextureStages> bump{};
  std::array<DWORD, 8> wrap{};  // D3DRS_WRAP0..7
  float point_size = 1.0f, point_size_min = 1.0f, point_size_max = 64.0f;
};

// Rebuilds the groups of key and uniforms whose Dirty bits are set, then clears them.
// Called on the DrawPrimitives2 thread, once per draw after a state change.
void update_derived(StateBlock& state, PipelineKey& key, DrawUniforms& uniforms);

}  // namespace dp2::state
