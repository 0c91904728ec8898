#include "state/pipeline_key.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

namespace dp2::state {
namespace {

std::uint8_t u8(DWORD v) noexcept { return static_cast<std::uint8_t>(v); }
std::uint8_t flag(DWORD v) noexcept { return v != 0 ? 1 : 0; }  // render-state BOOL: any non-zero is TRUE
float as_float(DWORD v) noexcept { return std::bit_cast<float>(v); }

void derive_raster(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.fill_mode = u8(s.render_state(D3DRS_FILLMODE));
  k.shade_mode = u8(s.render_state(D3DRS_SHADEMODE));
  k.cull_mode = u8(s.render_state(D3DRS_CULLMODE));
  k.last_pixel = flag(s.render_state(D3DRS_LASTPIXEL));
  k.scissor = flag(s.render_state(D3DRS_SCISSORTESTENABLE));
  u.scissor = s.scissor;
  u.point_size = as_float(s.render_state(D3DRS_POINTSIZE));
  u.point_size_min = as_float(s.render_state(D3DRS_POINTSIZE_MIN));
  u.point_size_max = as_float(s.render_state(D3DRS_POINTSIZE_MAX));
}

void derive_depth(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.z_mode = u8(s.render_state(D3DRS_ZENABLE));
  k.z_func = u8(s.render_state(D3DRS_ZFUNC));
  k.z_write = flag(s.render_state(D3DRS_ZWRITEENABLE));
  u.z_bias = s.render_state(D3DRS_ZBIAS);
  u.zrange = s.zrange;
  u.winfo = s.winfo;
}

void derive_stencil(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.stencil = flag(s.render_state(D3DRS_STENCILENABLE));
  k.two_sided_stencil = flag(s.render_state(D3DRS_TWOSIDEDSTENCILMODE));
  u.stencil_ref = s.render_state(D3DRS_STENCILREF);
  u.stencil_mask = s.render_state(D3DRS_STENCILMASK);
  u.stencil_write_mask = s.render_state(D3DRS_STENCILWRITEMASK);
  u.stencil_ops = {s.render_state(D3DRS_STENCILFAIL), s.render_state(D3DRS_STENCILZFAIL),
                   s.render_state(D3DRS_STENCILPASS), s.render_state(D3DRS_STENCILFUNC)};
  u.ccw_stencil_ops = {s.render_state(D3DRS_CCW_STENCILFAIL), s.render_state(D3DRS_CCW_STENCILZFAIL),
                       s.render_state(D3DRS_CCW_STENCILPASS), s.render_state(D3DRS_CCW_STENCILFUNC)};
}

void derive_alpha_test(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.alpha_test = flag(s.render_state(D3DRS_ALPHATESTENABLE));
  k.alpha_func = u8(s.render_state(D3DRS_ALPHAFUNC));
  u.alpha_ref = s.render_state(D3DRS_ALPHAREF);
}

void derive_blend(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.blend = flag(s.render_state(D3DRS_ALPHABLENDENABLE));
  k.src_blend = u8(s.render_state(D3DRS_SRCBLEND));
  k.dst_blend = u8(s.render_state(D3DRS_DESTBLEND));
  k.blend_op = u8(s.render_state(D3DRS_BLENDOP));
  k.separate_alpha = flag(s.render_state(D3DRS_SEPARATEALPHABLENDENABLE));
  k.src_blend_alpha = u8(s.render_state(D3DRS_SRCBLENDALPHA));
  k.dst_blend_alpha = u8(s.render_state(D3DRS_DESTBLENDALPHA));
  k.blend_op_alpha = u8(s.render_state(D3DRS_BLENDOPALPHA));
  k.color_write = u8(s.render_state(D3DRS_COLORWRITEENABLE) & 0xFu);
  k.dither = flag(s.render_state(D3DRS_DITHERENABLE));
  u.blend_factor = s.render_state(D3DRS_BLENDFACTOR);
}

void derive_fog(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.fog = flag(s.render_state(D3DRS_FOGENABLE));
  k.fog_table_mode = u8(s.render_state(D3DRS_FOGTABLEMODE));
  k.fog_vertex_mode = u8(s.render_state(D3DRS_FOGVERTEXMODE));
  k.range_fog = flag(s.render_state(D3DRS_RANGEFOGENABLE));
  u.fog_color = s.render_state(D3DRS_FOGCOLOR);
  u.fog_start = as_float(s.render_state(D3DRS_FOGSTART));
  u.fog_end = as_float(s.render_state(D3DRS_FOGEND));
  u.fog_density = as_float(s.render_state(D3DRS_FOGDENSITY));
}

void derive_stages(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.specular = flag(s.render_state(D3DRS_SPECULARENABLE));
  u.texture_factor = s.render_state(D3DRS_TEXTUREFACTOR);
  k.active_stages = 0;
  bool disabled = false;
  for (std::uint32_t i = 0; i < kTextureStages; ++i) {
    StageKey& st = k.stages[i];
    // "Stages above the first disabled one are ignored" (D3DTOP_DISABLE): zero them so
    // their leftover values never split the key.
    disabled = disabled || s.texture_stage_state(i, D3DTSS_COLOROP) == D3DTOP_DISABLE;
    if (disabled) {
      st = StageKey{};
      continue;
    }
    ++k.active_stages;
    st.color_op = u8(s.texture_stage_state(i, D3DTSS_COLOROP));
    st.color_arg0 = u8(s.texture_stage_state(i, D3DTSS_COLORARG0));
    st.color_arg1 = u8(s.texture_stage_state(i, D3DTSS_COLORARG1));
    st.color_arg2 = u8(s.texture_stage_state(i, D3DTSS_COLORARG2));
    st.alpha_op = u8(s.texture_stage_state(i, D3DTSS_ALPHAOP));
    st.alpha_arg0 = u8(s.texture_stage_state(i, D3DTSS_ALPHAARG0));
    st.alpha_arg1 = u8(s.texture_stage_state(i, D3DTSS_ALPHAARG1));
    st.alpha_arg2 = u8(s.texture_stage_state(i, D3DTSS_ALPHAARG2));
    st.result_arg = u8(s.texture_stage_state(i, D3DTSS_RESULTARG));
    const DWORD tci = s.texture_stage_state(i, D3DTSS_TEXCOORDINDEX);
    st.texcoord_index = u8(tci & 7u);
    st.texgen = u8(tci >> 16);
    constexpr DWORD kBumpStates[6] = {D3DTSS_BUMPENVMAT00, D3DTSS_BUMPENVMAT01, D3DTSS_BUMPENVMAT10,
                                      D3DTSS_BUMPENVMAT11, D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET};
    for (std::size_t b = 0; b < 6; ++b) u.bump[i][b] = as_float(s.texture_stage_state(i, kBumpStates[b]));
  }
  k.legacy_modulate = flag(s.legacy_modulate);
}

void derive_samplers(const StateBlock& s, PipelineKey& k, DrawUniforms& u) {
  k.color_key = flag(s.render_state(D3DRENDERSTATE_COLORKEYENABLE));
  k.dx7_filters = s.interface_version <= 3 ? 1 : 0;
  k.color_key_blend = flag(s.render_state(D3DRENDERSTATE_COLORKEYBLENDENABLE));
  for (std::uint32_t i = 0; i < kTextureStages; ++i) {
    StageKey& st = k.stages[i];
    u.textures[i] = s.texture_stage_state(i, D3DTSS_TEXTUREMAP);
    u.border_colors[i] = s.texture_stage_state(i, D3DTSS_BORDERCOLOR);
    u.lod_bias[i] = as_float(s.texture_stage_state(i, D3DTSS_MIPMAPLODBIAS));
    u.max_mip_level[i] = s.texture_stage_state(i, D3DTSS_MAXMIPLEVEL);
    // SETTEXLOD: the most detailed level the texture may use, whatever the stage says.
    if (const auto lod = s.texture_lod.find(u.textures[i]); lod != s.texture_lod.end())
      u.max_mip_level[i] = std::max<DWORD>(u.max_mip_level[i], lod->second);
    if (i >= k.active_stages) continue;
    st.has_texture = flag(u.textures[i]);
    st.mag_filter = u8(s.texture_stage_state(i, D3DTSS_MAGFILTER));
    st.min_filter = u8(s.texture_stage_state(i, D3DTSS_MINFILTER));
    st.mip_filter = u8(s.texture_stage_state(i, D3DTSS_MIPFILTER));
    st.address_u = u8(s.texture_stage_state(i, D3DTSS_ADDRESSU));
    st.address_v = u8(s.texture_stage_state(i, D3DTSS_ADDRESSV));
    st.address_w = u8(s.texture_stage_state(i, D3DTSS_ADDRESSW));
  }
  for (std::uint32_t i = 0; i < 8; ++i) u.wrap[i] = s.render_state(D3DRS_WRAP0 + i);
}

}  // namespace

void update_derived(StateBlock& state, PipelineKey& key, DrawUniforms& uniforms) {
  const std::uint32_t dirty = state.dirty();
  if (dirty & kDirtyRaster) derive_raster(state, key, uniforms);
  if (dirty & kDirtyDepth) derive_depth(state, key, uniforms);
  if (dirty & kDirtyStencil) derive_stencil(state, key, uniforms);
  if (dirty & kDirtyAlphaTest) derive_alpha_test(state, key, uniforms);
  if (dirty & kDirtyBlend) derive_blend(state, key, uniforms);
  if (dirty & kDirtyFog) derive_fog(state, key, uniforms);
  // Sampler fields of the key depend on which stages are active, so a stage change
  // rebuilds both.
  if (dirty & kDirtyTextureStages) derive_stages(state, key, uniforms);
  if (dirty & (kDirtyTextureStages | kDirtySamplers)) derive_samplers(state, key, uniforms);
  if (dirty & kDirtyViewport) uniforms.viewport = state.viewport;
  // Every group is consumed here: the groups without derived data yet (transform,
  // lighting, streams, ...) still mean "take a new snapshot", which the caller decided
  // from dirty() before this call.
  state.clear_dirty(kDirtyAll);
}

std::uint64_t PipelineKey::hash() const noexcept {
  static_assert(std::has_unique_object_representations_v<StageKey>);
  // FNV-1a over the raw bytes; the key is all bytes, so there is no padding to hash.
  unsigned char bytes[sizeof(PipelineKey)];
  std::memcpy(bytes, this, sizeof bytes);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

std::string PipelineKey::to_string() const {
  std::ostringstream out;
  out << "fill=" << int(fill_mode) << " shade=" << int(shade_mode) << " cull=" << int(cull_mode)
      << " z=" << int(z_mode) << '/' << int(z_func) << (z_write ? "w" : "") << " stencil=" << int(stencil)
      << " atest=" << int(alpha_test) << '/' << int(alpha_func) << " blend=" << int(blend) << '/'
      << int(src_blend) << ',' << int(dst_blend) << ',' << int(blend_op) << " fog=" << int(fog) << '/'
      << int(fog_table_mode) << " spec=" << int(specular) << " stages=" << int(active_stages);
  for (std::uint32_t i = 0; i < active_stages; ++i)
    out << " [" << i << ": c" << int(stages[i].color_op) << '(' << int(stages[i].color_arg1) << ','
        << int(stages[i].color_arg2) << ") a" << int(stages[i].alpha_op) << '(' << int(stages[i].alpha_arg1)
        << ',' << int(stages[i].alpha_arg2) << ')' << (stages[i].has_texture ? " tex" : "") << ']';
  return out.str();
}

}  // namespace dp2::state
