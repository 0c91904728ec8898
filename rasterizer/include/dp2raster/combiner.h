// The texture stage cascade's arithmetic: argument selection and every D3DTEXTUREOP, plus
// fog. The stage loop itself (with BUMPENVMAP feeding the next stage's coordinates) lives
// in the pixel pipeline. Pure functions, called per pixel on a worker thread.
//
// Numerics: float, -ffp-contract=off, each formula evaluated in the order written in
// combiner.cpp. Every op result clamps each channel to [0, 1] as
// clamp01(x) = x > 0 ? (x < 1 ? x : 1) : 0, so NaN becomes 0.
#pragma once

#include <cstdint>

#include "dp2raster/types.h"

namespace dp2::raster {

// Each channel to [0, 1], NaN to 0: every op's result, and the pixel pipeline's colour
// after the stages (the block kernels clamp the same way, simd.h).
float clamp01(float x) noexcept;
Color clamp01(const Color& c) noexcept;

// Values mirror D3DTEXTUREOP.
enum class TextureOp : std::uint8_t {
  kDisable = 1, kSelectArg1, kSelectArg2, kModulate, kModulate2x, kModulate4x, kAdd, kAddSigned,
  kAddSigned2x, kSubtract, kAddSmooth, kBlendDiffuseAlpha, kBlendTextureAlpha, kBlendFactorAlpha,
  kBlendTextureAlphaPM, kBlendCurrentAlpha, kPremodulate, kModulateAlphaAddColor, kModulateColorAddAlpha,
  kModulateInvAlphaAddColor, kModulateInvColorAddAlpha, kBumpEnvMap, kBumpEnvMapLuminance, kDotProduct3,
  kMultiplyAdd, kLerp,
};

// Argument selectors mirror D3DTA_*: low 4 bits select, 0x10 complement, 0x20 alpha replicate.
// kArgConstant (D3DTA_CONSTANT, DX9) reads StageInputs::constant. Selector values with no
// D3DTA_ meaning (7..15) read transparent black (a guess; the runtime rejects them).
inline constexpr std::uint8_t kArgDiffuse = 0, kArgCurrent = 1, kArgTexture = 2, kArgTFactor = 3,
                              kArgSpecular = 4, kArgTemp = 5, kArgConstant = 6, kArgSelectMask = 0x0F,
                              kArgComplement = 0x10, kArgAlphaReplicate = 0x20;

struct StageInputs {
  Color diffuse, specular, current, texture, tfactor, temp;
  Color constant{1.0f, 1.0f, 1.0f, 1.0f};  // D3DTSS_CONSTANT (default 0xFFFFFFFF)
};

// The value of argument `arg` (with its modifiers) from the inputs.
// COMPLEMENT is 1 − x on all four channels; ALPHAREPLICATE copies alpha into r, g, b.
// D3DTA calls both "read modifiers" without an order; the two commute
// (replicate(1 − x) = 1 − replicate(x) = (1 − a, 1 − a, 1 − a, 1 − a)), so the order is
// not observable. We complement first, then replicate.
Color select_arg(std::uint8_t arg, const StageInputs& in) noexcept;

// The result of `op` on the already-selected arguments (arg0 = COLORARG0/ALPHAARG0, used by
// MULTIPLYADD and LERP; arg1, arg2 as D3D names them), for the colour (rgb) or the alpha
// channel. `in` supplies the inputs the BLEND*ALPHA ops read (α from diffuse, texture,
// tfactor or current alpha). Results clamp to [0, 1].
//
// apply_color_op fills all four channels: rgb is the colour result; `a` is the same
// formula on the alpha channels, except for DOTPRODUCT3, whose a is the dot product
// (D3D9: "replicate the sum to all color channels, including alpha" — the pipeline uses
// this a instead of ALPHAOP's result when COLOROP is DOTPRODUCT3).
//
// Special cases (D3DTEXTUREOP page):
//  - DISABLE: passes in.current through (the pipeline stops the cascade before calling).
//  - PREMODULATE: "the output of stage n is arg1. Additionally, if there is a texture in
//    stage n + 1, any D3DTA_CURRENT in stage n + 1 is premultiplied by texture in stage
//    n + 1." These functions return arg1; the pipeline does the premultiply, with
//    premodulate_current() below, when it builds stage n + 1's inputs.
//  - MODULATEALPHA_ADDCOLOR, MODULATECOLOR_ADDALPHA, MODULATEINVALPHA_ADDCOLOR,
//    MODULATEINVCOLOR_ADDALPHA are "supported only for color operations"; as alpha ops
//    (and in the colour result's a) they act as SELECTARG1.
//  - BUMPENVMAP, BUMPENVMAPLUMINANCE perturb the next stage's coordinates (the pixel
//    pipeline does that, with bump_offset()); as results they pass in.current through
//    (D3DTA_CURRENT after a bump stage is the output of the stage before it).
//  - DOTPRODUCT3 as an alpha op sees only alpha arguments: it treats each as the grey
//    vector (a, a, a), i.e. 4·3·(a1 − 0.5)(a2 − 0.5). (A guess; D3D defines the op on
//    rgb.)
Color apply_color_op(TextureOp op, const Color& arg0, const Color& arg1, const Color& arg2,
                     const StageInputs& in) noexcept;
float apply_alpha_op(TextureOp op, float arg0, float arg1, float arg2, const StageInputs& in) noexcept;

// PREMODULATE in stage n: stage n + 1's D3DTA_CURRENT is current·texture(n + 1), all four
// channels (only when stage n + 1 has a texture; the pipeline decides that).
Color premodulate_current(const Color& current, const Color& next_texture) noexcept;

// D3DTSS_BUMPENVMAT00/01/10/11, D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET.
struct BumpEnv {
  float m00 = 0.0f, m01 = 0.0f, m10 = 0.0f, m11 = 0.0f, lscale = 0.0f, loffset = 0.0f;
};

// The bump-mapping formulas (Direct3D 9 "Bump Mapping Formulas"):
//   du' = du·M00 + dv·M10,  dv' = du·M01 + dv·M11,  L' = clamp01(L·lscale + loffset).
// du', dv' are added to the next stage's (u, v); L' modulates the next stage's colour for
// BUMPENVMAPLUMINANCE. The signed form takes du, dv in [−1, 1] directly.
void bump_offset_signed(const BumpEnv& env, float du, float dv, float l, float& du_out, float& dv_out,
                        float& luminance) noexcept;
// Our formats have no signed (V8U8, L6V5U5, X8L8V8U8) layouts, so a bump texel is an
// unsigned colour: du = 2·r − 1, dv = 2·g − 1 (the _bx2 expansion), L = b (texbeml reads
// luminance from blue). Outputs du', dv', L' as above.
void bump_offset(const BumpEnv& env, const Color& bump_texel, float& du, float& dv, float& luminance) noexcept;

// Values mirror D3DFOGMODE.
enum class FogMode : std::uint8_t { kNone = 0, kExp = 1, kExp2 = 2, kLinear = 3 };

// Fog factor f in [0, 1] (1 = no fog) for distance d: LINEAR (end − d)/(end − start),
// EXP e^(−density·d), EXP2 e^(−(density·d)²) (D3DFOGMODE page); NONE gives 1.
// LINEAR with end == start is a step: f = 1 for d ≤ start, 0 beyond (the limit of the
// formula as end → start from above; it also matches f(start) = 1 for any end > start).
// f is clamped to [0, 1] (NaN → 0).
float fog_factor(FogMode mode, float d, float start, float end, float density) noexcept;

// color' = f·color + (1 − f)·fog_color, alpha unchanged.
Color apply_fog(const Color& color, const Color& fog_color, float f) noexcept;

}  // namespace dp2::raster
