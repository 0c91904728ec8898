#include "state/state_block.h"

#include <bit>
#include <cstring>

namespace dp2::state {
namespace {

DWORD float_bits(float f) noexcept { return std::bit_cast<DWORD>(f); }

// Direct3D's documented defaults for a new device (the D3DRENDERSTATETYPE page gives each
// state's default). ZENABLE's default depends on whether a depth buffer is attached; the
// context sets it when it binds one.
void set_render_state_defaults(std::array<DWORD, kRenderStateCount>& rs) {
  rs[D3DRS_ZENABLE] = D3DZB_FALSE;
  rs[D3DRS_FILLMODE] = D3DFILL_SOLID;
  rs[D3DRS_SHADEMODE] = D3DSHADE_GOURAUD;
  rs[D3DRS_ZWRITEENABLE] = TRUE;
  rs[D3DRS_LASTPIXEL] = TRUE;
  rs[D3DRS_SRCBLEND] = D3DBLEND_ONE;
  rs[D3DRS_DESTBLEND] = D3DBLEND_ZERO;
  rs[D3DRS_CULLMODE] = D3DCULL_CCW;
  rs[D3DRS_ZFUNC] = D3DCMP_LESSEQUAL;
  rs[D3DRS_ALPHAFUNC] = D3DCMP_ALWAYS;
  rs[D3DRS_FOGSTART] = float_bits(0.0f);
  rs[D3DRS_FOGEND] = float_bits(1.0f);
  rs[D3DRS_FOGDENSITY] = float_bits(1.0f);
  rs[D3DRS_STENCILFUNC] = D3DCMP_ALWAYS;
  rs[D3DRS_STENCILFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_STENCILZFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_STENCILPASS] = D3DSTENCILOP_KEEP;
  rs[D3DRS_STENCILMASK] = 0xFFFFFFFFu;
  rs[D3DRS_STENCILWRITEMASK] = 0xFFFFFFFFu;
  rs[D3DRS_TEXTUREFACTOR] = 0xFFFFFFFFu;
  rs[D3DRS_CLIPPING] = TRUE;
  rs[D3DRS_LIGHTING] = TRUE;
  rs[D3DRS_COLORVERTEX] = TRUE;
  rs[D3DRS_LOCALVIEWER] = TRUE;
  rs[D3DRS_DIFFUSEMATERIALSOURCE] = D3DMCS_COLOR1;
  rs[D3DRS_SPECULARMATERIALSOURCE] = D3DMCS_COLOR2;
  rs[D3DRS_AMBIENTMATERIALSOURCE] = D3DMCS_MATERIAL;
  rs[D3DRS_EMISSIVEMATERIALSOURCE] = D3DMCS_MATERIAL;
  rs[D3DRS_POINTSIZE] = float_bits(1.0f);
  rs[D3DRS_POINTSIZE_MIN] = float_bits(1.0f);
  rs[D3DRS_POINTSIZE_MAX] = float_bits(64.0f);
  rs[D3DRS_POINTSCALE_A] = float_bits(1.0f);
  rs[D3DRS_MULTISAMPLEANTIALIAS] = TRUE;
  rs[D3DRS_MULTISAMPLEMASK] = 0xFFFFFFFFu;
  rs[D3DRS_PATCHSEGMENTS] = float_bits(1.0f);
  rs[D3DRS_COLORWRITEENABLE] = 0xFu;
  rs[D3DRS_BLENDOP] = D3DBLENDOP_ADD;
  rs[D3DRS_CCW_STENCILFUNC] = D3DCMP_ALWAYS;
  rs[D3DRS_CCW_STENCILFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_CCW_STENCILZFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_CCW_STENCILPASS] = D3DSTENCILOP_KEEP;
  rs[D3DRS_COLORWRITEENABLE1] = 0xFu;
  rs[D3DRS_COLORWRITEENABLE2] = 0xFu;
  rs[D3DRS_COLORWRITEENABLE3] = 0xFu;
  rs[D3DRS_BLENDFACTOR] = 0xFFFFFFFFu;
  rs[D3DRS_SRCBLENDALPHA] = D3DBLEND_ONE;
  rs[D3DRS_DESTBLENDALPHA] = D3DBLEND_ZERO;
  rs[D3DRS_BLENDOPALPHA] = D3DBLENDOP_ADD;
  rs[D3DRS_MAXTESSELLATIONLEVEL] = float_bits(1.0f);
  rs[D3DRS_ADAPTIVETESS_W] = float_bits(1.0f);
}

// D3DTEXTURESTAGESTATETYPE defaults: stage 0 modulates texture by diffuse, the others
// are disabled; each stage reads the coordinate set of its own number.
void set_stage_defaults(std::array<std::array<DWORD, kStatesPerStage>, kStageCount>& tss) {
  for (DWORD stage = 0; stage < kStageCount; ++stage) {
    auto& s = tss[stage];
    s[D3DTSS_COLOROP] = stage == 0 ? D3DTOP_MODULATE : D3DTOP_DISABLE;
    s[D3DTSS_COLORARG1] = D3DTA_TEXTURE;
    s[D3DTSS_COLORARG2] = D3DTA_CURRENT;
    s[D3DTSS_ALPHAOP] = stage == 0 ? D3DTOP_SELECTARG1 : D3DTOP_DISABLE;
    s[D3DTSS_ALPHAARG1] = D3DTA_TEXTURE;
    s[D3DTSS_ALPHAARG2] = D3DTA_CURRENT;
    s[D3DTSS_TEXCOORDINDEX] = stage;
    s[D3DTSS_ADDRESSU] = D3DTADDRESS_WRAP;
    s[D3DTSS_ADDRESSV] = D3DTADDRESS_WRAP;
    s[D3DTSS_ADDRESSW] = D3DTADDRESS_WRAP;
    s[D3DTSS_MAGFILTER] = D3DTEXF_POINT;
    s[D3DTSS_MINFILTER] = D3DTEXF_POINT;
    s[D3DTSS_MIPFILTER] = D3DTEXF_NONE;
    s[D3DTSS_MAXANISOTROPY] = 1;
    s[D3DTSS_COLORARG0] = D3DTA_CURRENT;
    s[D3DTSS_ALPHAARG0] = D3DTA_CURRENT;
    s[D3DTSS_RESULTARG] = D3DTA_CURRENT;
  }
}

}  // namespace

StateBlock::StateBlock() {
  set_render_state_defaults(rs_);
  set_stage_defaults(tss_);
  // Unset transforms read as identity (pipeline code uses transform_or_identity()).
}

bool StateBlock::set_render_state(std::uint32_t state, DWORD value) noexcept {
  if (state >= kRenderStateCount) return false;
  if (rs_[state] != value) {
    rs_[state] = value;
    dirty_ |= render_state_group(state);
  }
  return true;
}

bool StateBlock::set_texture_stage_state(std::uint32_t stage, std::uint32_t tss, DWORD value) noexcept {
  if (stage >= kStageCount || tss >= kStatesPerStage) return false;
  if (tss_[stage][tss] != value) {
    tss_[stage][tss] = value;
    dirty_ |= texture_stage_state_group(tss);
  }
  return true;
}

D3DMATRIX StateBlock::transform_or_identity(DWORD type) const {
  const auto it = transforms.find(type);
  return it == transforms.end() ? identity_matrix() : it->second;
}

D3DMATRIX identity_matrix() noexcept {
  D3DMATRIX m;
  std::memset(&m, 0, sizeof m);
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}

D3DMATRIX multiply(const D3DMATRIX& a, const D3DMATRIX& b) noexcept {
  float fa[4][4], fb[4][4], fr[4][4];
  std::memcpy(fa, &a, sizeof fa);
  std::memcpy(fb, &b, sizeof fb);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += fa[r][k] * fb[k][c];
      fr[r][c] = sum;
    }
  D3DMATRIX out;
  std::memcpy(&out, fr, sizeof out);
  return out;
}

}  // namespace dp2::state
