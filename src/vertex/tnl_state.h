// The fixed-function transform-and-lighting state one untransformed draw needs, as a POD
// that travels in the command buffer (DP2GPU_OP_SET_TRANSFORM_LIGHTING, dp2/gpu_commands.h):
// the back end reads nothing of the front end's StateBlock (ARCHITECTURE.md).
//
// Encoded form: the TnlState bytes, then `world_count` D3DMATRIX world matrices (world
// matrix i of vertex blending, D3DTS_WORLDMATRIX(i)). Only the matrices the draw can use
// are encoded: 1 without blending, VERTEXBLEND + 1 with plain blending, and with indexed
// blending every matrix up to the highest one the application set (at most 256, as D3D);
// unset ones read as identity.
//
// Thread: built on the DrawPrimitives2 thread; read on the GPU worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "dp2/ddi.h"

namespace dp2::state {
class StateBlock;
}

namespace dp2::vertex {

inline constexpr std::uint32_t kMaxActiveLights = 8;     // D3D fixed function: 8 active lights
inline constexpr std::uint32_t kMaxUserClipPlanes = 6;   // D3DRS_CLIPPLANEENABLE bits 0–5
inline constexpr std::uint32_t kTnlTextureStages = 8;    // D3DTS_TEXTURE0–7, one per stage
inline constexpr std::uint32_t kMaxWorldMatrices = 256;  // D3DTS_WORLDMATRIX(0–255)
inline constexpr std::uint32_t kMaxPlainBlendMatrices = 4;  // VERTEXBLEND 3WEIGHTS → 4 matrices

struct TnlState {
  // Render states, raw D3D values (floats as floats).
  DWORD lighting = TRUE, ambient = 0, color_vertex = TRUE, local_viewer = TRUE, normalize_normals = FALSE;
  DWORD specular_enable = FALSE;
  DWORD diffuse_source = D3DMCS_COLOR1, specular_source = D3DMCS_COLOR2;
  DWORD ambient_source = D3DMCS_MATERIAL, emissive_source = D3DMCS_MATERIAL;
  DWORD vertex_blend = D3DVBF_DISABLE, indexed_vertex_blend = FALSE;
  DWORD clipping = TRUE, clip_plane_enable = 0;
  DWORD fog_enable = FALSE, fog_vertex_mode = D3DFOG_NONE, fog_table_mode = D3DFOG_NONE, range_fog = FALSE;
  float fog_start = 0.0f, fog_end = 1.0f, fog_density = 1.0f;
  float point_size = 1.0f, point_size_min = 1.0f, point_size_max = 64.0f;
  DWORD point_scale_enable = FALSE;
  float point_scale_a = 1.0f, point_scale_b = 0.0f, point_scale_c = 0.0f;
  DWORD texcoord_index[kTnlTextureStages] = {0, 1, 2, 3, 4, 5, 6, 7};
  DWORD texture_transform_flags[kTnlTextureStages] = {};
  // Viewport (pixels; width or height 0 = the render target's size) and ZRANGE.
  DWORD viewport_x = 0, viewport_y = 0, viewport_width = 0, viewport_height = 0;
  float min_z = 0.0f, max_z = 1.0f;
  DWORD light_count = 0;  // enabled lights with data, ≤ kMaxActiveLights
  DWORD world_count = 1;  // world matrices that follow the struct, 1–kMaxWorldMatrices
  DWORD reserved = 0;     // 0; keeps the size a multiple of 8
  D3DMATERIAL7 material{};
  D3DLIGHT7 lights[kMaxActiveLights]{};
  float clip_planes[kMaxUserClipPlanes][4]{};  // world space (see clip.h)
  D3DMATRIX view{}, projection{};
  D3DMATRIX texture[kTnlTextureStages]{};
};
static_assert(std::is_trivially_copyable_v<TnlState>, "TnlState travels as bytes");
static_assert(sizeof(TnlState) % 8 == 0, "the world matrices follow at an 8-byte boundary");

inline constexpr std::size_t tnl_encoded_size(std::uint32_t world_count) noexcept {
  return sizeof(TnlState) + std::size_t{world_count} * sizeof(D3DMATRIX);
}

// True for an FVF whose position the TnL pipeline transforms (XYZ, XYZB1–5, XYZW).
bool is_untransformed(DWORD fvf) noexcept;

// Encodes the state an untransformed draw of `fvf` needs (TnlState, then the world
// matrices) into `out` (replacing its contents).
//
// World matrix ids (STATES.md §12): a DX7-or-older context (interface_version ≤ 3) sends
// world i < 4 as 1/4/5/6, a DX8+ one as 256 + i. The context's own numbering is looked up
// first; when it has no such matrix, the other numbering's is used (a DX8 driver may see
// pre-DX8 ids from an old application); neither → identity.
//
// Lights: the enabled lights with data, in light-index order; beyond kMaxActiveLights the
// rest are ignored (D3D's MaxActiveLights cap is 8 for dp2).
void encode_tnl_state(const state::StateBlock& s, DWORD fvf, std::vector<std::byte>& out);

// Splits an encoded blob (already size-checked) into its parts.
bool decode_tnl_state(std::span<const std::byte> blob, TnlState& state, std::vector<D3DMATRIX>& worlds);

}  // namespace dp2::vertex
