// Texture stage arithmetic and fog (combiner.h). Called per pixel on a worker thread;
// no state of its own. Each formula is evaluated exactly in the order written (float,
// -ffp-contract=off), so the SIMD kernels can reproduce the bits.
#include "dp2raster/combiner.h"

#include <cmath>

namespace dp2::raster {
namespace {

// ADDSIGNED / ADDSIGNED2X bias and DOTPRODUCT3's "shifted down by half" (y = x − 0.5).
constexpr float kSignedBias = 0.5f;
// MODULATE2X / ADDSIGNED2X: "shift left 1 bit"; MODULATE4X: "shift left 2 bits".
constexpr float kShift1 = 2.0f;
constexpr float kShift2 = 4.0f;
// DOTPRODUCT3 rescales the product of two biased [−0.5, 0.5] values to [−1, 1] per term
// (each factor ×2, as the _bx2 expansion).
constexpr float kDot3Scale = 4.0f;
// DOTPRODUCT3 as an alpha op: the grey vector (a, a, a) has three equal terms.
constexpr float kDot3GreyTerms = 3.0f;
// bump_offset: unsigned texel channel x ∈ [0, 1] → signed 2·x − 1.
constexpr float kBumpExpandScale = 2.0f;
constexpr float kBumpExpandBias = 1.0f;

// The blend factor of the BLEND*ALPHA ops (BLENDTEXTUREALPHAPM uses the texture's).
float blend_alpha(TextureOp op, const StageInputs& in) noexcept {
  switch (op) {
    case TextureOp::kBlendDiffuseAlpha: return in.diffuse.a;
    case TextureOp::kBlendTextureAlpha:
    case TextureOp::kBlendTextureAlphaPM: return in.texture.a;
    case TextureOp::kBlendFactorAlpha: return in.tfactor.a;
    case TextureOp::kBlendCurrentAlpha: return in.current.a;
    default: return 0.0f;
  }
}

// One channel of every op that works channel by channel (everything but the colour-only
// family, DOTPRODUCT3 and the pass-through ops), before clamping. `pass` is the value
// DISABLE / BUMPENVMAP* pass through (the current colour's channel).
float channel_op(TextureOp op, float a0, float a1, float a2, float alpha, float pass) noexcept {
  switch (op) {
    case TextureOp::kSelectArg1:
    case TextureOp::kPremodulate: return a1;
    case TextureOp::kSelectArg2: return a2;
    case TextureOp::kModulate: return a1 * a2;
    case TextureOp::kModulate2x: return (a1 * a2) * kShift1;
    case TextureOp::kModulate4x: return (a1 * a2) * kShift2;
    case TextureOp::kAdd: return a1 + a2;
    case TextureOp::kAddSigned: return (a1 + a2) - kSignedBias;
    case TextureOp::kAddSigned2x: return ((a1 + a2) - kSignedBias) * kShift1;
    case TextureOp::kSubtract: return a1 - a2;
    case TextureOp::kAddSmooth: return (a1 + a2) - (a1 * a2);
    case TextureOp::kBlendDiffuseAlpha:
    case TextureOp::kBlendTextureAlpha:
    case TextureOp::kBlendFactorAlpha:
    case TextureOp::kBlendCurrentAlpha: return a1 * alpha + a2 * (1.0f - alpha);
    case TextureOp::kBlendTextureAlphaPM: return a1 + a2 * (1.0f - alpha);
    case TextureOp::kMultiplyAdd: return a0 + a1 * a2;
    case TextureOp::kLerp: return a0 * a1 + (1.0f - a0) * a2;
    // Colour-only ops act as SELECTARG1 on a single channel (combiner.h).
    case TextureOp::kModulateAlphaAddColor:
    case TextureOp::kModulateColorAddAlpha:
    case TextureOp::kModulateInvAlphaAddColor:
    case TextureOp::kModulateInvColorAddAlpha: return a1;
    case TextureOp::kDotProduct3: {
      const float t = (a1 - kSignedBias) * (a2 - kSignedBias);
      return kDot3Scale * (kDot3GreyTerms * t);
    }
    case TextureOp::kDisable:
    case TextureOp::kBumpEnvMap:
    case TextureOp::kBumpEnvMapLuminance:
    default: return pass;
  }
}

}  // namespace

float clamp01(float x) noexcept { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

Color clamp01(const Color& c) noexcept { return {clamp01(c.r), clamp01(c.g), clamp01(c.b), clamp01(c.a)}; }

Color select_arg(std::uint8_t arg, const StageInputs& in) noexcept {
  Color c;
  switch (arg & kArgSelectMask) {
    case kArgDiffuse: c = in.diffuse; break;
    case kArgCurrent: c = in.current; break;
    case kArgTexture: c = in.texture; break;
    case kArgTFactor: c = in.tfactor; break;
    case kArgSpecular: c = in.specular; break;
    case kArgTemp: c = in.temp; break;
    case kArgConstant: c = in.constant; break;
    default: c = Color{}; break;  // no D3DTA_ source: transparent black (a guess)
  }
  if ((arg & kArgComplement) != 0) c = {1.0f - c.r, 1.0f - c.g, 1.0f - c.b, 1.0f - c.a};
  if ((arg & kArgAlphaReplicate) != 0) c = {c.a, c.a, c.a, c.a};
  return c;
}

Color apply_color_op(TextureOp op, const Color& arg0, const Color& arg1, const Color& arg2,
                     const StageInputs& in) noexcept {
  switch (op) {
    case TextureOp::kModulateAlphaAddColor:  // arg1.rgb + arg1.a·arg2.rgb
      return clamp01(Color{arg1.r + arg1.a * arg2.r, arg1.g + arg1.a * arg2.g, arg1.b + arg1.a * arg2.b, arg1.a});
    case TextureOp::kModulateColorAddAlpha:  // arg1.rgb·arg2.rgb + arg1.a
      return clamp01(Color{arg1.r * arg2.r + arg1.a, arg1.g * arg2.g + arg1.a, arg1.b * arg2.b + arg1.a, arg1.a});
    case TextureOp::kModulateInvAlphaAddColor: {  // (1 − arg1.a)·arg2.rgb + arg1.rgb
      const float inv = 1.0f - arg1.a;
      return clamp01(Color{inv * arg2.r + arg1.r, inv * arg2.g + arg1.g, inv * arg2.b + arg1.b, arg1.a});
    }
    case TextureOp::kModulateInvColorAddAlpha:  // (1 − arg1.rgb)·arg2.rgb + arg1.a
      return clamp01(Color{(1.0f - arg1.r) * arg2.r + arg1.a, (1.0f - arg1.g) * arg2.g + arg1.a,
                           (1.0f - arg1.b) * arg2.b + arg1.a, arg1.a});
    case TextureOp::kDotProduct3: {
      // 4·((r1 − .5)(r2 − .5) + (g1 − .5)(g2 − .5) + (b1 − .5)(b2 − .5)), summed left to
      // right, replicated to r, g, b and a.
      const float dr = (arg1.r - kSignedBias) * (arg2.r - kSignedBias);
      const float dg = (arg1.g - kSignedBias) * (arg2.g - kSignedBias);
      const float db = (arg1.b - kSignedBias) * (arg2.b - kSignedBias);
      const float d = clamp01(kDot3Scale * ((dr + dg) + db));
      return {d, d, d, d};
    }
    default: {
      const float alpha = blend_alpha(op, in);
      return clamp01(Color{channel_op(op, arg0.r, arg1.r, arg2.r, alpha, in.current.r),
                           channel_op(op, arg0.g, arg1.g, arg2.g, alpha, in.current.g),
                           channel_op(op, arg0.b, arg1.b, arg2.b, alpha, in.current.b),
                           channel_op(op, arg0.a, arg1.a, arg2.a, alpha, in.current.a)});
    }
  }
}

float apply_alpha_op(TextureOp op, float arg0, float arg1, float arg2, const StageInputs& in) noexcept {
  return clamp01(channel_op(op, arg0, arg1, arg2, blend_alpha(op, in), in.current.a));
}

Color premodulate_current(const Color& current, const Color& next_texture) noexcept {
  return {current.r * next_texture.r, current.g * next_texture.g, current.b * next_texture.b,
          current.a * next_texture.a};
}

void bump_offset_signed(const BumpEnv& env, float du, float dv, float l, float& du_out, float& dv_out,
                        float& luminance) noexcept {
  du_out = du * env.m00 + dv * env.m10;
  dv_out = du * env.m01 + dv * env.m11;
  luminance = clamp01(l * env.lscale + env.loffset);
}

void bump_offset(const BumpEnv& env, const Color& bump_texel, float& du, float& dv, float& luminance) noexcept {
  const float su = kBumpExpandScale * bump_texel.r - kBumpExpandBias;
  const float sv = kBumpExpandScale * bump_texel.g - kBumpExpandBias;
  bump_offset_signed(env, su, sv, bump_texel.b, du, dv, luminance);
}

float fog_factor(FogMode mode, float d, float start, float end, float density) noexcept {
  switch (mode) {
    case FogMode::kLinear:
      if (end == start) return d <= start ? 1.0f : 0.0f;
      return clamp01((end - d) / (end - start));
    case FogMode::kExp:
      return clamp01(std::exp(-(density * d)));
    case FogMode::kExp2: {
      const float t = density * d;
      return clamp01(std::exp(-(t * t)));
    }
    case FogMode::kNone:
    default:
      return 1.0f;
  }
}

Color apply_fog(const Color& color, const Color& fog_color, float f) noexcept {
  const float g = 1.0f - f;
  return {f * color.r + g * fog_color.r, f * color.g + g * fog_color.g, f * color.b + g * fog_color.b, color.a};
}

}  // namespace dp2::raster
