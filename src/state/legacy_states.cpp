// The DX5-era render states that retired in DX7 interfaces but still arrive from legacy
// applications (STATES.md §1: "retired for DX7 interfaces (legacy apps only)"): a driver
// maps them onto texture stage 0, as the DDK Perm3 sample does in its render-state path.
//
// Thread: the DrawPrimitives2 caller's.
#include "state/legacy_states.h"

namespace dp2::state {
namespace {

void stage0(StateBlock& s, DWORD tss, DWORD value) { s.set_texture_stage_state(0, tss, value); }

// D3DTEXTUREBLEND → stage 0 operations (the DirectX 6 "Texture Blending" mapping table).
void map_texture_blend(StateBlock& s, DWORD mode) {
  s.legacy_modulate = false;
  s.mark(kDirtyTextureStages);
  auto ops = [&](DWORD cop, DWORD carg1, DWORD carg2, DWORD aop, DWORD aarg1, DWORD aarg2) {
    stage0(s, D3DTSS_COLOROP, cop);
    stage0(s, D3DTSS_COLORARG1, carg1);
    stage0(s, D3DTSS_COLORARG2, carg2);
    stage0(s, D3DTSS_ALPHAOP, aop);
    stage0(s, D3DTSS_ALPHAARG1, aarg1);
    stage0(s, D3DTSS_ALPHAARG2, aarg2);
  };
  switch (mode) {
    case D3DTBLEND_DECAL:
    case D3DTBLEND_COPY:
    case D3DTBLEND_DECALMASK:  // the mask bit (colour-key-like) is not modelled
      ops(D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
      break;
    case D3DTBLEND_MODULATE:
    case D3DTBLEND_MODULATEMASK:
      // Colour = texture × diffuse; alpha = the texture's alpha when the texture has one,
      // else the diffuse alpha. Stage 0 takes the texture's alpha here, and the back end
      // switches to the diffuse alpha for a texture format without alpha
      // (StateBlock::legacy_modulate).
      ops(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
      s.legacy_modulate = true;
      return;
    case D3DTBLEND_DECALALPHA:
      ops(D3DTOP_BLENDTEXTUREALPHA, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG2, D3DTA_TEXTURE, D3DTA_DIFFUSE);
      break;
    case D3DTBLEND_MODULATEALPHA:
      ops(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE);
      break;
    case D3DTBLEND_ADD:
      ops(D3DTOP_ADD, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG2, D3DTA_TEXTURE, D3DTA_DIFFUSE);
      break;
    default:
      break;  // out of range: ignored
  }
}

// D3DTEXTUREFILTER (DX5 TEXTUREMAG / TEXTUREMIN) → DX7 D3DTFG / D3DTFN / D3DTFP values.
void map_filter(StateBlock& s, DWORD state, DWORD filter) {
  const bool linear = filter == D3DFILTER_LINEAR || filter == D3DFILTER_MIPLINEAR ||
                      filter == D3DFILTER_LINEARMIPNEAREST || filter == D3DFILTER_LINEARMIPLINEAR;
  if (state == D3DRENDERSTATE_TEXTUREMAG) {
    stage0(s, D3DTSS_MAGFILTER, linear ? D3DTFG_LINEAR : D3DTFG_POINT);
    return;
  }
  stage0(s, D3DTSS_MINFILTER, linear ? D3DTFN_LINEAR : D3DTFN_POINT);
  DWORD mip = D3DTFP_NONE;
  if (filter == D3DFILTER_MIPNEAREST || filter == D3DFILTER_LINEARMIPNEAREST) mip = D3DTFP_POINT;
  if (filter == D3DFILTER_MIPLINEAR || filter == D3DFILTER_LINEARMIPLINEAR) mip = D3DTFP_LINEAR;
  stage0(s, D3DTSS_MIPFILTER, mip);
}

}  // namespace

void map_legacy_render_state(StateBlock& s, DWORD state, DWORD value) {
  switch (state) {
    case D3DRENDERSTATE_TEXTUREHANDLE: stage0(s, D3DTSS_TEXTUREMAP, value); break;
    case D3DRENDERSTATE_TEXTUREMAPBLEND: map_texture_blend(s, value); break;
    case D3DRENDERSTATE_TEXTUREMAG:
    case D3DRENDERSTATE_TEXTUREMIN: map_filter(s, state, value); break;
    case D3DRENDERSTATE_TEXTUREADDRESS:
      stage0(s, D3DTSS_ADDRESSU, value);
      stage0(s, D3DTSS_ADDRESSV, value);
      break;
    case D3DRENDERSTATE_TEXTUREADDRESSU: stage0(s, D3DTSS_ADDRESSU, value); break;
    case D3DRENDERSTATE_TEXTUREADDRESSV: stage0(s, D3DTSS_ADDRESSV, value); break;
    case D3DRENDERSTATE_WRAPU:
    case D3DRENDERSTATE_WRAPV: {
      const DWORD bit = state == D3DRENDERSTATE_WRAPU ? D3DWRAP_U : D3DWRAP_V;
      const DWORD wrap0 = s.render_state(D3DRS_WRAP0);
      s.set_render_state(D3DRS_WRAP0, value ? (wrap0 | bit) : (wrap0 & ~bit));
      break;
    }
    default: break;
  }
}

}  // namespace dp2::state
