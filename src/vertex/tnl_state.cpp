#include "vertex/tnl_state.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "ddi/fvf.h"
#include "state/state_block.h"

namespace dp2::vertex {
namespace {

constexpr DWORD kPositionMask = 0x400Eu;  // D3DFVF_POSITION_MASK (DX9)
constexpr DWORD kDx7WorldIds[4] = {D3DTRANSFORMSTATE_WORLD_DX7, D3DTRANSFORMSTATE_WORLD1_DX7,
                                   D3DTRANSFORMSTATE_WORLD2_DX7, D3DTRANSFORMSTATE_WORLD3_DX7};
constexpr DWORD kWorldMatrixBase = 256;  // D3DTS_WORLDMATRIX(0)

float rs_float(const state::StateBlock& s, std::uint32_t rs) { return std::bit_cast<float>(s.render_state(rs)); }

// World matrix i in the context's numbering, falling back to the other one (tnl_state.h).
D3DMATRIX world_matrix(const state::StateBlock& s, std::uint32_t i) {
  const bool dx7 = s.interface_version <= ddi::kInterfaceDX7;
  const DWORD modern = kWorldMatrixBase + i;
  const DWORD legacy = i < 4 ? kDx7WorldIds[i] : modern;
  const DWORD first = dx7 ? legacy : modern, second = dx7 ? modern : legacy;
  if (const auto it = s.transforms.find(first); it != s.transforms.end()) return it->second;
  if (const auto it = s.transforms.find(second); it != s.transforms.end()) return it->second;
  return state::identity_matrix();
}

// Number of blend weights (floats after XYZ) an FVF position carries.
std::uint32_t fvf_betas(DWORD fvf) {
  if ((fvf & kPositionMask) == D3DFVF_XYZW) return 0;
  const DWORD p = fvf & 0x000Eu;
  return p >= D3DFVF_XYZB1 ? (p - D3DFVF_XYZB1) / 2 + 1 : 0;
}

// How many world matrices the draw can use (the header comment of tnl_state.h).
std::uint32_t worlds_needed(const state::StateBlock& s, DWORD fvf) {
  const std::uint32_t betas = fvf_betas(fvf);
  const DWORD blend = s.render_state(D3DRS_VERTEXBLEND);
  const bool indexed = s.render_state(D3DRS_INDEXEDVERTEXBLENDENABLE) != FALSE;
  if (blend == D3DVBF_DISABLE || betas == 0) return 1;
  if (indexed) {
    // Any index 0–255 may appear in the vertices: encode up to the highest matrix set.
    std::uint32_t highest = 0;
    for (const auto& [id, m] : s.transforms) {
      if (id >= kWorldMatrixBase && id < kWorldMatrixBase + kMaxWorldMatrices) highest = std::max(highest, id - kWorldMatrixBase);
      for (std::uint32_t i = 0; i < 4; ++i)
        if (id == kDx7WorldIds[i]) highest = std::max(highest, i);
    }
    return highest + 1;
  }
  if (blend == D3DVBF_0WEIGHTS) return 1;
  if (blend >= D3DVBF_1WEIGHTS && blend <= D3DVBF_3WEIGHTS) return std::min<std::uint32_t>(blend + 1, kMaxPlainBlendMatrices);
  return 1;  // D3DVBF_TWEENING and unknown values: no blending (transform.cpp)
}

}  // namespace

bool is_untransformed(DWORD fvf) noexcept {
  return (fvf & kPositionMask) != D3DFVF_XYZRHW && ddi::fvf_position_size(fvf) != 0;
}

void encode_tnl_state(const state::StateBlock& s, DWORD fvf, std::vector<std::byte>& out) {
  TnlState t;
  t.lighting = s.render_state(D3DRS_LIGHTING);
  t.ambient = s.render_state(D3DRS_AMBIENT);
  t.color_vertex = s.render_state(D3DRS_COLORVERTEX);
  t.local_viewer = s.render_state(D3DRS_LOCALVIEWER);
  t.normalize_normals = s.render_state(D3DRS_NORMALIZENORMALS);
  t.specular_enable = s.render_state(D3DRS_SPECULARENABLE);
  t.diffuse_source = s.render_state(D3DRS_DIFFUSEMATERIALSOURCE);
  t.specular_source = s.render_state(D3DRS_SPECULARMATERIALSOURCE);
  t.ambient_source = s.render_state(D3DRS_AMBIENTMATERIALSOURCE);
  t.emissive_source = s.render_state(D3DRS_EMISSIVEMATERIALSOURCE);
  t.vertex_blend = s.render_state(D3DRS_VERTEXBLEND);
  t.indexed_vertex_blend = s.render_state(D3DRS_INDEXEDVERTEXBLENDENABLE);
  t.clipping = s.render_state(D3DRS_CLIPPING);
  t.clip_plane_enable = s.render_state(D3DRS_CLIPPLANEENABLE) & ((1u << kMaxUserClipPlanes) - 1);
  t.fog_enable = s.render_state(D3DRS_FOGENABLE);
  t.fog_vertex_mode = s.render_state(D3DRS_FOGVERTEXMODE);
  t.fog_table_mode = s.render_state(D3DRS_FOGTABLEMODE);
  t.range_fog = s.render_state(D3DRS_RANGEFOGENABLE);
  t.fog_start = rs_float(s, D3DRS_FOGSTART);
  t.fog_end = rs_float(s, D3DRS_FOGEND);
  t.fog_density = rs_float(s, D3DRS_FOGDENSITY);
  t.point_size = rs_float(s, D3DRS_POINTSIZE);
  t.point_size_min = rs_float(s, D3DRS_POINTSIZE_MIN);
  t.point_size_max = rs_float(s, D3DRS_POINTSIZE_MAX);
  t.point_scale_enable = s.render_state(D3DRS_POINTSCALEENABLE);
  t.point_scale_a = rs_float(s, D3DRS_POINTSCALE_A);
  t.point_scale_b = rs_float(s, D3DRS_POINTSCALE_B);
  t.point_scale_c = rs_float(s, D3DRS_POINTSCALE_C);
  for (std::uint32_t i = 0; i < kTnlTextureStages; ++i) {
    t.texcoord_index[i] = s.texture_stage_state(i, D3DTSS_TEXCOORDINDEX);
    t.texture_transform_flags[i] = s.texture_stage_state(i, D3DTSS_TEXTURETRANSFORMFLAGS);
    t.texture[i] = s.transform_or_identity(D3DTS_TEXTURE0 + i);
  }
  t.viewport_x = s.viewport.x;
  t.viewport_y = s.viewport.y;
  t.viewport_width = s.viewport.width;
  t.viewport_height = s.viewport.height;
  t.min_z = s.zrange.dvMinZ;
  t.max_z = s.zrange.dvMaxZ;
  t.material = s.material;
  for (const auto& [index, light] : s.lights) {
    if (t.light_count == kMaxActiveLights) break;
    if (light.enabled && light.has_data) t.lights[t.light_count++] = light.data;
  }
  for (std::uint32_t i = 0; i < kMaxUserClipPlanes; ++i) std::memcpy(t.clip_planes[i], s.clip_planes[i].data(), sizeof t.clip_planes[i]);
  t.view = s.transform_or_identity(D3DTS_VIEW);
  t.projection = s.transform_or_identity(D3DTS_PROJECTION);
  t.world_count = worlds_needed(s, fvf);

  out.resize(tnl_encoded_size(t.world_count));
  std::memcpy(out.data(), &t, sizeof t);
  for (std::uint32_t i = 0; i < t.world_count; ++i) {
    const D3DMATRIX m = world_matrix(s, i);
    std::memcpy(out.data() + sizeof t + i * sizeof m, &m, sizeof m);
  }
}

bool decode_tnl_state(std::span<const std::byte> blob, TnlState& state, std::vector<D3DMATRIX>& worlds) {
  if (blob.size() < sizeof state) return false;
  std::memcpy(&state, blob.data(), sizeof state);
  if (state.world_count == 0 || state.world_count > kMaxWorldMatrices || blob.size() < tnl_encoded_size(state.world_count))
    return false;
  worlds.resize(state.world_count);
  std::memcpy(worlds.data(), blob.data() + sizeof state, state.world_count * sizeof(D3DMATRIX));
  state.light_count = std::min<DWORD>(state.light_count, kMaxActiveLights);
  return true;
}

}  // namespace dp2::vertex
